package manifest

import (
	"regexp"
	"strconv"
	"strings"
)

// Syntax of label keys, label values and DNS names, with the messages of
// k8s.io/apimachinery/pkg/api/validate/content (kube.go, dns.go).
const (
	labelKeyFmt       = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelKeyErrMsg    = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt     = "(" + labelKeyFmt + ")?"
	labelValueErrMsg  = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	dns1123LabelFmt   = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelMsg   = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubFmt     = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubMsg     = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	labelKeyMaxLength = 63
)

var (
	labelKeyRe   = regexp.MustCompile("^" + labelKeyFmt + "$")
	labelValueRe = regexp.MustCompile("^" + labelValueFmt + "$")
	dnsLabelRe   = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dnsSubRe     = regexp.MustCompile("^" + dns1123SubFmt + "$")
)

func regexError(msg, format string, examples ...string) string {
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + format + "')"
}

func maxLenError(n int) string { return "must be no more than " + strconv.Itoa(n) + " bytes" }

// qualifiedNameErrors is content.IsLabelKey.
func qualifiedNameErrors(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range dnsSubdomainErrors(prefix) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return []string{"a valid label key " + regexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > labelKeyMaxLength {
		errs = append(errs, "name part "+maxLenError(labelKeyMaxLength))
	}
	if !labelKeyRe.MatchString(name) {
		errs = append(errs, "name part "+regexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// labelValueErrors is content.IsLabelValue.
func labelValueErrors(value string) []string {
	var errs []string
	if len(value) > 63 {
		errs = append(errs, maxLenError(63))
	}
	if !labelValueRe.MatchString(value) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

func dnsSubdomainErrors(value string) []string {
	var errs []string
	if len(value) > 253 {
		errs = append(errs, maxLenError(253))
	}
	if !dnsSubRe.MatchString(value) {
		errs = append(errs, regexError(dns1123SubMsg, dns1123SubFmt, "example.com"))
	}
	return errs
}

func dnsLabelErrors(value string) []string {
	var errs []string
	if len(value) > 63 {
		errs = append(errs, maxLenError(63))
	}
	if !dnsLabelRe.MatchString(value) {
		if dnsSubRe.MatchString(value) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexError(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// validateLabelName is metav1validation.ValidateLabelName.
func validateLabelName(path, key string) []fieldError {
	var out []fieldError
	for _, m := range qualifiedNameErrors(key) {
		out = append(out, invalid(path, key, m))
	}
	return out
}

func validateLabelValue(path, value string) []fieldError {
	var out []fieldError
	for _, m := range labelValueErrors(value) {
		out = append(out, invalid(path, value, m))
	}
	return out
}

// validateLabels is metav1validation.ValidateLabels (keys in sorted order,
// so messages are deterministic). Messages name the map, as upstream's do;
// the position is the offending key's.
func validateLabels(path string, labels map[string]string) []fieldError {
	var out []fieldError
	for _, k := range sortedKeys(labels) {
		for _, e := range validateLabelName(path, k) {
			e.at = keyed(path, k)
			out = append(out, e)
		}
		for _, e := range validateLabelValue(path, labels[k]) {
			e.at = keyed(path, k)
			out = append(out, e)
		}
	}
	return out
}
