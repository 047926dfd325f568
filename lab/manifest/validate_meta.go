package manifest

import "podlab.dev/podlab/engine/api"

// Name rules of the kinds the lab loads: Namespaces are DNS labels
// (ValidateNamespaceName), everything else DNS subdomains.
const (
	subdomainName = false
	labelName     = true
)

// validateObjectMeta is the part of ValidateObjectMeta a manifest can get
// wrong: a missing or malformed name or namespace, bad labels.
func validateObjectMeta(m *api.ObjectMeta, path string, namespaced, nameIsLabel bool) []fieldError {
	var out []fieldError
	nameErrs := dnsSubdomainErrors
	if nameIsLabel {
		nameErrs = dnsLabelErrors
	}
	if m.Name == "" {
		out = append(out, required(join(path, "name"), "name or generateName is required"))
	} else {
		for _, msg := range nameErrs(m.Name) {
			out = append(out, invalid(join(path, "name"), m.Name, msg))
		}
	}
	if namespaced {
		for _, msg := range dnsLabelErrors(m.Namespace) {
			out = append(out, invalid(join(path, "namespace"), m.Namespace, msg))
		}
	}
	return append(out, validateLabels(join(path, "labels"), m.Labels)...)
}
