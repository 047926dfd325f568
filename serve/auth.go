package serve

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"math/big"
	"os"
	"strings"

	gossh "golang.org/x/crypto/ssh"
)

// Auth is how participants authenticate.
type Auth struct {
	// Mode is "open" (anyone who can reach the port), "keys" (the public
	// keys in KeysFile) or "password" (one shared password).
	Mode string
	// Keys are the allowed keys (mode keys).
	Keys []AllowedKey
	// Password is the shared password (mode password).
	Password string
}

// AllowedKey is one line of the keys file.
type AllowedKey struct {
	Key gossh.PublicKey
	// Instructor keys get the instructor's view over SSH instead of a lab.
	Instructor bool
	Comment    string
}

// ParseKeys reads an authorized_keys-style file. A line whose options
// include `instructor` (e.g. `instructor ssh-ed25519 AAAA… ada@laptop`)
// marks an instructor key.
func ParseKeys(data []byte) ([]AllowedKey, error) {
	var out []AllowedKey
	sc := bufio.NewScanner(bytes.NewReader(data))
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, comment, opts, _, err := gossh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("keys file line %d: %w (want authorized_keys lines: [instructor] TYPE BASE64 [comment])", ln, err)
		}
		k := AllowedKey{Key: key, Comment: comment}
		for _, o := range opts {
			if strings.EqualFold(o, "instructor") {
				k.Instructor = true
			}
		}
		out = append(out, k)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("keys file has no keys")
	}
	return out, nil
}

// LoadKeys reads and parses a keys file.
func LoadKeys(path string) ([]AllowedKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--auth keys: %w", err)
	}
	keys, err := ParseKeys(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return keys, nil
}

// find returns the allowed key matching k.
func (a Auth) find(k gossh.PublicKey) (AllowedKey, bool) {
	if k == nil {
		return AllowedKey{}, false
	}
	m := k.Marshal()
	for _, ak := range a.Keys {
		if subtle.ConstantTimeCompare(ak.Key.Marshal(), m) == 1 {
			return ak, true
		}
	}
	return AllowedKey{}, false
}

// passwordOK compares in constant time.
func (a Auth) passwordOK(p string) bool {
	return a.Password != "" && subtle.ConstantTimeCompare([]byte(p), []byte(a.Password)) == 1
}

// NewPassword makes a short password to read out loud: three words'
// worth of lower-case letters and digits without look-alikes.
func NewPassword() (string, error) {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	var b strings.Builder
	for i := 0; i < 12; i++ {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			return "", err
		}
		b.WriteByte(alphabet[n.Int64()])
	}
	return b.String(), nil
}
