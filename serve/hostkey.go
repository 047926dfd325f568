package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// DefaultHostKeyPath is where the host key is kept between workshops, so
// participants who connected before do not get a changed-key warning:
// <user config dir>/podlab/ssh_host_ed25519_key.
func DefaultHostKeyPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("host key: no config directory (%w); give --host-key FILE", err)
	}
	return filepath.Join(dir, "podlab", "ssh_host_ed25519_key"), nil
}

// LoadOrCreateHostKey reads the PEM host key at path, or generates an
// ed25519 key and writes it there (mode 0600, directory 0700) when the
// file does not exist. It returns the key's PEM and whether it was new.
func LoadOrCreateHostKey(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		if _, perr := gossh.ParsePrivateKey(b); perr != nil {
			return nil, false, fmt.Errorf("host key %s: %w (delete it to generate a new one)", path, perr)
		}
		return b, false, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	blk, err := gossh.MarshalPrivateKey(priv, "podlab serve host key")
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	b = pem.EncodeToMemory(blk)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	return b, true, nil
}
