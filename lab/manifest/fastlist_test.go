package manifest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// kubectlList is `kubectl get nodes,pods -A -o yaml` of a small cluster,
// managedFields included, as kubectl prints it; bad adds a pod with an
// invalid field and one with an unknown field.
func kubectlList(nodes, pods int, bad bool) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	for i := 0; i < nodes; i++ {
		fmt.Fprintf(&b, `- apiVersion: v1
  kind: Node
  metadata:
    creationTimestamp: "2024-05-01T10:00:00Z"
    labels:
      kubernetes.io/hostname: node-%d
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:labels:
            .: {}
      manager: kubelet
      operation: Update
    name: node-%d
  spec: {}
  status:
    capacity: {cpu: "8", memory: 32Gi, pods: "110"}
`, i, i)
	}
	for i := 0; i < pods; i++ {
		fmt.Fprintf(&b, `- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2024-05-01T10:00:%02dZ"
    labels: {app: web}
    managedFields:
    - apiVersion: v1
      fieldsV1:
        f:spec:
          f:containers:
            k:{"name":"web"}:
              .: {}
      manager: kube-controller-manager
    - apiVersion: v1
      fieldsV1:
        f:status: {}
      manager: kubelet
      subresource: status
    name: web-%d
    namespace: shop
  spec:
    nodeName: node-%d
    containers:
    - name: web
      image: nginx
      resources:
        requests: {cpu: 100m, memory: 128Mi}
  status:
    phase: Running
    conditions:
    - {type: Ready, status: "True", lastTransitionTime: "2024-05-01T10:00:%02dZ"}
    containerStatuses:
    - {name: web, ready: true, restartCount: %d, state: {running: {startedAt: "2024-05-01T10:00:00Z"}}}
`, i%60, i, i%nodes, i%60, i%4)
	}
	if bad {
		b.WriteString(`- apiVersion: v1
  kind: Pod
  metadata:
    name: broken
    managedFields:
    - manager: x
  spec:
    containers:
    - name: web
      image: nginx
      resources: {requests: {cpu: lots}}
- apiVersion: v1
  kind: Pod
  metadata: {name: odd}
  spec:
    containers: [{name: c, image: i}]
    fancyField: 1
`)
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return b.String()
}

// digest describes everything Load returned, positions included.
func digest(t *testing.T, objs *Objects, err error) string {
	t.Helper()
	var b strings.Builder
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		if e, ok := err.(*Error); ok {
			for _, w := range e.Warnings {
				fmt.Fprintf(&b, "warning: %s\n", w)
			}
		}
		return b.String()
	}
	for _, o := range objs.Order {
		j, _ := json.Marshal(o)
		fmt.Fprintf(&b, "%s %s\n", objs.PosOf(o), j)
	}
	for _, w := range objs.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	fmt.Fprintf(&b, "reference %s\n", objs.Reference)
	return b.String()
}

// The item-by-item path decodes a kubectl List exactly as the general
// path does: the same objects, positions, times, warnings and errors.
func TestFastListMatchesGeneralPath(t *testing.T) {
	for _, bad := range []bool{false, true} {
		data := []byte(kubectlList(5, 40, bad))
		if bad {
			// several batches, the errors in the last
			data = []byte(kubectlList(5, 2*fastListBatch+40, bad))
		}
		slow, errSlow := Load("dump.yaml", data, Options{})
		fast, errFast := Load("dump.yaml", data, Options{fastListMin: 1})
		ds, df := digest(t, slow, errSlow), digest(t, fast, errFast)
		if ds != df {
			t.Fatalf("bad=%v: general and item-by-item paths differ:\n--- general\n%s\n--- item by item\n%s", bad, ds, df)
		}
		if !bad && (errFast != nil || len(fast.Pods) != 40 || len(fast.Nodes) != 5) {
			t.Fatalf("fast: %v, %d pods %d nodes", errFast, len(fast.Pods), len(fast.Nodes))
		}
		if bad && !strings.Contains(df, "dump.yaml:") {
			t.Fatalf("bad input: no positioned error:\n%s", df)
		}
	}
}

// A syntax error inside an item keeps a file position and the parser's
// message. The general parser names the line where the enclosing item
// starts (107); parsing the item alone names the misindented line itself
// (126) — both are lines of that item.
func TestFastListSyntaxErrorPosition(t *testing.T) {
	data := kubectlList(2, 3, false)
	data = strings.Replace(data, "    name: web-2\n", "    name: web-2\n   bad: [\n", 1)
	_, errSlow := Load("dump.yaml", []byte(data), Options{})
	_, errFast := Load("dump.yaml", []byte(data), Options{fastListMin: 1})
	if errSlow == nil || errFast == nil {
		t.Fatalf("no syntax error: general %v, item by item %v", errSlow, errFast)
	}
	msg := func(e error) string { _, m, _ := strings.Cut(e.Error(), ":1: "); return m }
	if !strings.HasPrefix(errSlow.Error(), "dump.yaml:107:1: ") || !strings.HasPrefix(errFast.Error(), "dump.yaml:126:1: ") || msg(errSlow) != msg(errFast) {
		t.Fatalf("general: %v\nitem by item: %v", errSlow, errFast)
	}
}

// blankManagedFields keeps line numbers and counts entries.
func TestBlankManagedFields(t *testing.T) {
	in := "- kind: Pod\n  metadata:\n    managedFields:\n    - a: 1\n      b:\n        c: {}\n    - a: 2\n    name: p\n"
	out, n := blankManagedFields([]byte(in))
	want := "- kind: Pod\n  metadata:\n    managedFields:\n\n\n\n\n    name: p\n"
	if string(out) != want || n != 2 {
		t.Fatalf("got %q (%d entries), want %q (2)", out, n, want)
	}
}

// kubectlJSON is kubectlList as `kubectl get -o json` prints it.
func kubectlJSON(t testing.TB, nodes, pods int, bad bool) []byte {
	var v any
	if err := yaml.Unmarshal([]byte(kubectlList(nodes, pods, bad)), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// The JSON List is decoded item by item with the general path's results,
// positions (line:col in the JSON) included.
func TestFastJSONListMatchesGeneralPath(t *testing.T) {
	for _, bad := range []bool{false, true} {
		data := kubectlJSON(t, 5, 40, bad)
		pods := 40
		if bad {
			// several batches, the errors in the last
			pods = 2*fastListBatch + 40
			data = kubectlJSON(t, 5, pods, bad)
		}
		if starts, _, ok := jsonItemStarts(data); !ok || len(starts) != 5+pods+map[bool]int{false: 0, true: 2}[bad] {
			t.Fatalf("bad=%v: jsonItemStarts found %d items (ok=%v)", bad, len(starts), ok)
		}
		slow, errSlow := Load("dump.json", data, Options{})
		fast, errFast := Load("dump.json", data, Options{fastListMin: 1})
		ds, df := digest(t, slow, errSlow), digest(t, fast, errFast)
		if ds != df {
			t.Fatalf("bad=%v: general and item-by-item paths differ:\n--- general\n%s\n--- item by item\n%s", bad, ds, df)
		}
		if !bad && (errFast != nil || len(fast.Pods) != 40) {
			t.Fatalf("fast: %v", errFast)
		}
		if !bad && !strings.Contains(df, "ignored 85 managedFields entries") {
			t.Fatalf("managedFields not counted:\n%s", df[len(df)-300:])
		}
	}
}

func TestBlankJSONManagedFields(t *testing.T) {
	in := "{\n                \"managedFields\": [\n        {\"a\": \"]}\\\"\"},\n        {\"b\": [1]}\n    ],\n    \"name\": \"p\"\n}"
	out, n := blankJSONManagedFields([]byte(in))
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil || n != 2 || len(v["managedFields"].([]any)) != 0 || v["name"] != "p" || strings.Count(string(out), "\n") != strings.Count(in, "\n") {
		t.Fatalf("got %q (%d entries, %v), want managedFields empty, 2 entries, lines kept", out, n, err)
	}
}

// jsonNode builds the tree yaml.v3 builds for the same JSON: kinds,
// values, tags, styles and positions (columns in characters).
func TestJSONNodeMatchesYAMLParser(t *testing.T) {
	data := kubectlJSON(t, 2, 5, true)
	extra := []byte(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "é-ü", "annotations": {"a": "x\"\\y\u00e9", "b": "ünïcödé", "c": "z"}}, "spec": {"n": -1.5e3, "t": true, "f": false, "z": null, "e": [], "o": {}}}`)
	starts, cols, ok := jsonItemStarts(data)
	if !ok {
		t.Fatal("not a kubectl JSON List")
	}
	type item struct {
		text      []byte
		line, col int
	}
	items := []item{{extra, 1, 1}}
	for i, st := range starts {
		items = append(items, item{data[st.off:st.end], st.line, cols[i]})
	}
	var compare func(path string, a, b *yaml.Node)
	compare = func(path string, a, b *yaml.Node) {
		if a.Kind != b.Kind || a.Value != b.Value || a.ShortTag() != b.ShortTag() || a.Line != b.Line || a.Column != b.Column || a.Style != b.Style || len(a.Content) != len(b.Content) {
			t.Fatalf("%s: jsonNode %v %q %s %d:%d style %v (%d children); yaml %v %q %s %d:%d style %v (%d children)", path,
				a.Kind, a.Value, a.ShortTag(), a.Line, a.Column, a.Style, len(a.Content), b.Kind, b.Value, b.ShortTag(), b.Line, b.Column, b.Style, len(b.Content))
		}
		for i := range a.Content {
			compare(fmt.Sprintf("%s/%d", path, i), a.Content[i], b.Content[i])
		}
	}
	for i, it := range items {
		got, _, err := jsonNode(it.text, it.line, it.col)
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		var doc yaml.Node
		padded, _ := blankJSONManagedFields(it.text)
		padded = append([]byte(strings.Repeat(" ", it.col-1)), padded...)
		if err := yaml.Unmarshal(padded, &doc); err != nil {
			t.Fatal(err)
		}
		shiftLines(&doc, it.line-1)
		compare(fmt.Sprintf("item %d", i), got, doc.Content[0])
	}
	if _, _, err := jsonNode([]byte(`{"a": [1, }`), 1, 1); err == nil {
		t.Fatal("malformed JSON accepted")
	}
}

// The item-by-item path never crashes and positions every diagnostic; on
// input both paths accept they agree.
func FuzzFastList(f *testing.F) {
	f.Add([]byte(kubectlList(1, 2, true)))
	f.Add(kubectlJSON(f, 1, 2, true))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, errFast := Load("f.yaml", data, Options{MaxBytes: 1 << 20, fastListMin: 1})
		if errFast != nil {
			e, ok := errFast.(*Error)
			if !ok || len(e.Diagnostics) == 0 {
				t.Fatalf("error without diagnostics: %v", errFast)
			}
			for _, d := range e.Diagnostics {
				checkDiagnostic(t, d)
				if strings.Contains(d.Message, "internal error") {
					t.Fatalf("loader panicked: %s", d)
				}
			}
			return
		}
		slow, errSlow := Load("f.yaml", data, Options{MaxBytes: 1 << 20})
		if errSlow == nil && digest(t, slow, nil) != digest(t, fast, nil) {
			t.Fatalf("paths differ on accepted input:\n%s\n---\n%s", digest(t, slow, nil), digest(t, fast, nil))
		}
	})
}

// Progress is told about every batch, ending at the item count.
func TestFastListProgress(t *testing.T) {
	var calls [][2]int
	data := []byte(kubectlList(3, fastListBatch+10, false))
	if _, err := Load("dump.yaml", data, Options{fastListMin: 1, Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }}); err != nil {
		t.Fatal(err)
	}
	total := fastListBatch + 13
	if len(calls) != 2 || calls[0] != [2]int{fastListBatch, total} || calls[1] != [2]int{total, total} {
		t.Fatalf("progress calls %v, want [%d %d] then [%d %d]", calls, fastListBatch, total, total, total)
	}
}
