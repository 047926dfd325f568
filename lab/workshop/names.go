package workshop

import (
	"strings"
	"unicode"
)

// genericUsers are SSH user names that say nothing about the person (the
// default of a cloud image or a copied command line): the server asks for
// a name instead.
var genericUsers = map[string]bool{
	"": true, "root": true, "ubuntu": true, "admin": true, "user": true, "guest": true, "ec2-user": true,
	"pi": true, "debian": true, "centos": true, "fedora": true, "core": true, "workshop": true, "podlab": true,
	"participant": true, "student": true, "test": true, "vagrant": true, "docker": true, "azureuser": true,
}

// MaxNameLen bounds a participant name (it is a column in a table).
const MaxNameLen = 20

// CleanName keeps the letters, digits, spaces, dots, dashes and
// underscores of a name (it is printed on the instructor's terminal, so no
// control sequences get through), collapses spaces and cuts it to
// MaxNameLen runes.
func CleanName(s string) string {
	var b strings.Builder
	n := 0
	space := false
runes:
	for _, r := range strings.TrimSpace(s) {
		if n >= MaxNameLen {
			break
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '_':
			if space {
				if n+1 >= MaxNameLen {
					break runes // no room for the space and a rune: never end in a space
				}
				b.WriteByte(' ')
				n++
				space = false
			}
			b.WriteRune(r)
			n++
		case unicode.IsSpace(r):
			space = b.Len() > 0
		}
	}
	return b.String()
}

// IsGeneric reports whether an SSH user name needs replacing by a real
// name.
func IsGeneric(user string) bool {
	return genericUsers[strings.ToLower(CleanName(user))]
}

// OneLine makes text safe to print on a terminal as one line of at most
// max runes: newlines and tabs become spaces, other control characters
// (escape sequences start with one) are dropped. Commands, broadcasts and
// events are typed by participants and shown on other people's screens.
func OneLine(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, c := range s {
		if n >= max {
			b.WriteString("…")
			break
		}
		switch {
		case c == '\n' || c == '\r' || c == '\t':
			c = ' '
		case c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0):
			continue
		}
		b.WriteRune(c)
		n++
	}
	return strings.TrimSpace(b.String())
}
