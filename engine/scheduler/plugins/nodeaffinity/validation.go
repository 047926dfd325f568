package nodeaffinity

import (
	"fmt"
	"strings"
)

// Label key and value syntax, as apimachinery's IsQualifiedName and
// IsValidLabelValue, which labels.NewRequirement applies: a requirement
// that fails them makes its term unparsable.
const (
	qualifiedNameMaxLength = 63
	labelValueMaxLength    = 63
	dnsSubdomainMaxLength  = 253
	nameFmtMsg             = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	valueFmtMsg            = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isNamePart matches ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], non-empty.
func isNamePart(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isDNSSubdomain matches a lowercase RFC 1123 subdomain.
func isDNSSubdomain(s string) bool {
	if s == "" || len(s) > dnsSubdomainMaxLength {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || (c == '-' && i > 0 && i < len(label)-1)
			if !ok {
				return false
			}
		}
	}
	return true
}

// validateLabelKey checks a qualified name ([prefix/]name).
func validateLabelKey(k string) error {
	name := k
	if i := strings.LastIndexByte(k, '/'); i >= 0 {
		prefix := k[:i]
		name = k[i+1:]
		if strings.Count(k, "/") > 1 {
			return fmt.Errorf("key: Invalid value: %q: a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, with an optional DNS subdomain prefix and '/'", k)
		}
		if !isDNSSubdomain(prefix) {
			return fmt.Errorf("key: Invalid value: %q: prefix part must be a lowercase RFC 1123 subdomain", k)
		}
	}
	switch {
	case name == "":
		return fmt.Errorf("key: Invalid value: %q: name part must be non-empty", k)
	case len(name) > qualifiedNameMaxLength:
		return fmt.Errorf("key: Invalid value: %q: name part must be no more than 63 characters", k)
	case !isNamePart(name):
		return fmt.Errorf("key: Invalid value: %q: %s", k, nameFmtMsg)
	}
	return nil
}

// validateLabelValue checks a label value (empty is allowed).
func validateLabelValue(v string) error {
	if v == "" {
		return nil
	}
	if len(v) > labelValueMaxLength {
		return fmt.Errorf("values: Invalid value: %q: must be no more than 63 characters", v)
	}
	if !isNamePart(v) {
		return fmt.Errorf("values: Invalid value: %q: %s", v, valueFmtMsg)
	}
	return nil
}
