package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestHostKeyIsMadeOnceAndKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "podlab", "ssh_host_ed25519_key")
	first, created, err := LoadOrCreateHostKey(path)
	if err != nil || !created {
		t.Fatalf("first run: created %v, %v", created, err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode: %v %v", st.Mode(), err)
	}
	again, created, err := LoadOrCreateHostKey(path)
	if err != nil || created || !bytes.Equal(first, again) {
		t.Fatalf("second run made a new key (participants would see a changed-key warning): created %v, %v", created, err)
	}
	if err := os.WriteFile(path, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateHostKey(path); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("a broken key file: %v", err)
	}
}

func TestParseKeysErrors(t *testing.T) {
	if _, err := ParseKeys([]byte("# nothing\n")); err == nil {
		t.Error("an empty keys file is an error")
	}
	if _, err := ParseKeys([]byte("ssh-ed25519 notbase64!!\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a bad line: %v", err)
	}
}

func TestPasswordAndBucketAndSanitize(t *testing.T) {
	p, err := NewPassword()
	if err != nil || !regexp.MustCompile(`^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$`).MatchString(p) {
		t.Errorf("password %q %v", p, err)
	}
	now := time.Now()
	b := newBucket(2, now)
	n := 0
	for i := 0; i < 10; i++ {
		if b.take(now) {
			n++
		}
	}
	if n != 8 {
		t.Errorf("burst of a 2/s bucket: %d, want 8", n)
	}
	if !b.take(now.Add(600 * time.Millisecond)) {
		t.Error("a token comes back after half a second")
	}
	if got := sanitizeLine("hi\x1b[2J\nthere\x07"); got != "hi[2J there" {
		t.Errorf("sanitizeLine: %q", got)
	}
}

func TestCommandFlags(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "keys")
	os.WriteFile(keyFile, []byte("instructor ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGc9Fq0Pg2PDWr5zoJ6MJnY2DGdTGdxYqJJDuZ8v6A0U ada\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--auth", "bogus", "--headless"}, `--auth "bogus"`},
		{[]string{"--auth", "keys", "--headless"}, "needs a file"},
		{[]string{"--auth", "keys", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"-f", "no-such-lesson"}, "no-such-lesson"},
		// the keys file is read, then the bad address stops it
		{[]string{"--auth", "keys", keyFile, "--listen", "256.1.1.1:1", "--headless", "--host-key", filepath.Join(dir, "hk")}, "256.1.1.1"},
		{[]string{"--headless", "extra"}, `unexpected argument "extra"`},
	} {
		var out, errb bytes.Buffer
		if code := Command(c.args, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errb.String(), c.want)
		}
	}
}
