package lab

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/textsafe"
)

// Export writes a scenario as plain Kubernetes manifests a real cluster
// accepts (kubectl apply -f, e.g. on kind or kwok): the nodes of the
// cluster shorthand as Node objects, then the file's own manifests as they
// are. The lab header is dropped; its lesson commands that kubectl can run
// are listed in a comment.
func Export(w io.Writer, f *File) error {
	// read before writing anything: a large file is read again from
	// disk (filetext.go), and may have changed
	manifests, err := f.manifestText()
	if err != nil {
		return err
	}
	// The comment lines quote the file: textsafe.Line keeps an escape
	// sequence from reaching the terminal and a newline in a title from
	// ending the comment (which would inject YAML into the export).
	fmt.Fprintf(w, "# %s — exported by podlab as plain manifests.\n", textsafe.Line(f.Name))
	fmt.Fprintln(w, "# Nodes are Node objects: apply them to a kwok cluster (fake nodes), or label a")
	fmt.Fprintln(w, "# real cluster's nodes the same way.")
	if sc := f.Scenario; sc != nil && sc.Lesson != nil {
		fmt.Fprintln(w, "#")
		fmt.Fprintln(w, "# Lesson steps as kubectl commands:")
		for i, st := range sc.Lesson.Steps {
			fmt.Fprintf(w, "#  %d. %s\n", i+1, textsafe.Line(st.Title))
			for _, line := range st.Do {
				fmt.Fprintf(w, "#     %s\n", textsafe.Line(kubectlEquivalent(line)))
			}
		}
	}
	if f.Scenario != nil {
		nodes, err := f.Scenario.Cluster.Nodes()
		if err != nil {
			return err
		}
		for _, n := range nodes {
			b, err := nodeYAML(n)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "---\n%s", b)
		}
	}
	body := bytes.TrimLeft(stripBlankLines(manifests), "\n")
	if len(bytes.TrimSpace(body)) > 0 {
		if !bytes.HasPrefix(body, []byte("---")) {
			fmt.Fprintln(w, "---")
		}
		_, err := w.Write(cleanManifest(body))
		return err
	}
	return nil
}

// kubectlEquivalent turns a lab command into the kubectl command that
// does the same, or says why there is none.
func kubectlEquivalent(line string) string {
	cmd, err := command.Parse(line)
	if err != nil {
		return "# " + line
	}
	switch c := cmd.(type) {
	case command.Scale, command.Cordon, command.Drain, command.Rollout:
		return "kubectl " + c.String()
	case command.Label:
		return "kubectl label node " + c.Node + " " + joinKV(c.Labels) + " --overwrite"
	case command.Taint:
		parts := []string{}
		for _, t := range c.Taints {
			parts = append(parts, t.String())
		}
		return "kubectl taint node " + c.Node + " " + strings.Join(parts, " ")
	case command.Delete:
		return "kubectl " + c.String()
	case command.Ungate:
		return kubectlUngate(c) // exec_ungate.go
	case command.Apply:
		if c.File != "" {
			return "kubectl apply -f " + c.File
		}
	}
	return "(lab only) " + line
}

func joinKV(kvs []command.KV) string {
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = kv.String()
	}
	return strings.Join(parts, " ")
}

func nodeYAML(n *api.Node) ([]byte, error) {
	labels := map[string]string{}
	for k, v := range n.Labels {
		labels[k] = v
	}
	m := map[string]any{
		"apiVersion": "v1",
		"kind":       "Node",
		"metadata":   map[string]any{"name": n.Name, "labels": labels},
	}
	spec := map[string]any{}
	if n.Spec.Unschedulable {
		spec["unschedulable"] = true
	}
	var taints []map[string]string
	for _, t := range n.Spec.Taints {
		tm := map[string]string{"key": t.Key, "effect": t.Effect}
		if t.Value != "" {
			tm["value"] = t.Value
		}
		taints = append(taints, tm)
	}
	if len(taints) > 0 {
		spec["taints"] = taints
	}
	if len(spec) > 0 {
		m["spec"] = spec
	}
	res := map[string]string{}
	var keys []string
	for k := range n.Status.Allocatable {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		q := n.Status.Allocatable[k]
		switch k {
		case api.ResourceCPU:
			res[k] = api.FormatCPU(q)
		case api.ResourceMemory:
			res[k] = api.FormatBytes(q)
		default:
			res[k] = fmt.Sprint(q.Value())
		}
	}
	m["status"] = map[string]any{"capacity": res, "allocatable": res}
	return yaml.Marshal(m)
}

// cleanManifest makes the file's own manifests safe to print. The YAML
// loader has already refused C0 controls, so what can remain is what YAML
// counts as printable and a terminal does not: NEL (U+0085), line
// separators and bidirectional overrides, which are shown as <U+XXXX>.
// Tabs and line ends are kept, so a clean file is written byte for byte.
func cleanManifest(body []byte) []byte {
	if textsafe.IsSafe(strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(string(body))) {
		return body
	}
	lines := strings.Split(string(body), "\n")
	for i, line := range lines {
		line, cr := strings.CutSuffix(line, "\r")
		cells := strings.Split(line, "\t")
		for j, c := range cells {
			cells[j] = textsafe.Line(c)
		}
		lines[i] = strings.Join(cells, "\t")
		if cr {
			lines[i] += "\r"
		}
	}
	return []byte(strings.Join(lines, "\n"))
}
