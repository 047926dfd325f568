package manifest

import (
	"strings"
	"testing"
)

func TestShortenQuoted(t *testing.T) {
	long := strings.Repeat("a", 1_000_000)
	cases := []struct{ in, want string }{
		{`Pod "p": spec.priority: expected an integer, got "5"`, `Pod "p": spec.priority: expected an integer, got "5"`},
		{`Pod "` + long + `" is invalid: name "` + long + `": too long`,
			`Pod "` + long[:100] + `…" (1000000 characters) is invalid: name "` + long[:100] + `…" (1000000 characters): too long`},
		{`x "` + strings.Repeat(`\"`, 120) + `" y`, `x "` + strings.Repeat(`\"`, 100) + `…" (120 characters) y`},
		{`x "` + strings.Repeat(`\"`, 80) + `" y`, `x "` + strings.Repeat(`\"`, 80) + `" y`},
		{`unclosed "` + long[:200], `unclosed "` + long[:200]},
	}
	for _, c := range cases {
		if got := shortenQuoted(c.in); got != c.want {
			t.Errorf("shortenQuoted(%.60q…) = %.300q", c.in, got)
		}
	}
	// a 1 MB name in a manifest: the error is short
	_, err := Load("t.yaml", []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: "+long+"}\nspec: {containers: [{name: c, image: i}]}\n"), Options{})
	if err == nil || len(err.Error()) > 1000 {
		t.Fatalf("error of %d bytes for a 1 MB name", len(err.Error()))
	}
}
