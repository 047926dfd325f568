package textsafe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// payloads are the escape sequences the issue names, as a title might
// carry them.
var payloads = []string{
	"\x1b[5mblink\x1b[0m",           // SGR blink
	"\x1b]52;c;ZWNobyBoaQ==\x07",    // OSC 52: write the clipboard
	"\x1b]0;owned\x1b\\",            // OSC 0: retitle the window
	"\x1b[2J\x1b[H",                 // CSI 2J: clear the screen
	"\u009b2J",                      // the same with a C1 CSI
	"abc\u202edef\u2066x\u2069",     // bidi overrides (Trojan Source)
	"line\u2028sep\u0085nel\x7fdel", // separators, NEL, DEL
}

func TestWriterCleansEachWrite(t *testing.T) {
	for _, p := range payloads {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		n, err := fmt.Fprintf(w, "step 1/2 %s (t=0s)\n", p)
		if err != nil || n != len("step 1/2  (t=0s)\n")+len(p) {
			t.Fatalf("Fprintf = %d, %v; want the input length and no error", n, err)
		}
		want := "step 1/2 " + Text(p) + " (t=0s)\n"
		if buf.String() != want {
			t.Errorf("wrote %q, want %q", buf.String(), want)
		}
		checkSafe(t, p, buf.String(), true)
	}
}

func TestWriterPassesSafeTextThrough(t *testing.T) {
	var buf bytes.Buffer
	in := "node-1 → zone-a ✓\nsecond line\n"
	fmt.Fprint(NewWriter(&buf), in)
	if buf.String() != in {
		t.Fatalf("wrote %q, want it unchanged", buf.String())
	}
}

// TestJSONEscapes verifies what encoding/json leaves raw and that the JSON
// writer escapes exactly that, losslessly: the decoded values are the same.
func TestJSONEscapes(t *testing.T) {
	for _, p := range payloads {
		raw, err := json.Marshal(map[string]string{"title": p})
		if err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsAny(raw, "\x1b\x07") {
			t.Errorf("encoding/json wrote a C0 control raw: %q", raw)
		}
		var buf bytes.Buffer
		if _, err := NewJSONWriter(&buf).Write(raw); err != nil {
			t.Fatal(err)
		}
		checkSafe(t, string(raw), buf.String(), true)
		var got map[string]string
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatalf("escaped JSON %q does not decode: %v", buf.String(), err)
		}
		if got["title"] != p {
			t.Errorf("decoded %q, want %q", got["title"], p)
		}
	}
	// What the writer is for: encoding/json writes C1 controls and bidi
	// overrides as they are.
	raw, _ := json.Marshal("\u009b\u202e")
	if !strings.Contains(string(raw), "\u009b") || JSON(string(raw)) != `"\u009b\u202e"` {
		t.Errorf("json.Marshal = %q, JSON() = %q", raw, JSON(string(raw)))
	}
}

func FuzzJSON(f *testing.F) {
	for _, p := range payloads {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := json.MarshalIndent([]string{s}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out := JSON(string(raw))
		checkSafe(t, string(raw), out, true)
		var a, b []string
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(out), &b); err != nil {
			t.Fatalf("JSON(%q) = %q: %v", raw, out, err)
		}
		if a[0] != b[0] {
			t.Fatalf("JSON changed the value: %q → %q", a[0], b[0])
		}
	})
}
