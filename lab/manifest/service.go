package manifest

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

// A Service matters to scheduling only through its selector: the System
// default spread constraints count the pods the Services selecting a pod
// select (helper.DefaultSelector). Everything else of the spec (ports,
// type, cluster IPs) is accepted and ignored.
var schemaServiceSpec = newSchema("selector",
	"ports type clusterIP clusterIPs externalIPs sessionAffinity loadBalancerIP loadBalancerSourceRanges externalName externalTrafficPolicy healthCheckNodePort publishNotReadyAddresses sessionAffinityConfig ipFamilies ipFamilyPolicy allocateLoadBalancerNodePorts loadBalancerClass internalTrafficPolicy trafficDistribution")

func decodeService(d *decoder, n *yaml.Node) (any, []fieldError) {
	svc := &api.Service{}
	d.fields(n, "", schemaTop, func(key string, v *yaml.Node, path string) {
		switch key {
		case "metadata":
			d.meta(v, path, &svc.ObjectMeta, true)
		case "spec":
			d.fields(v, path, schemaServiceSpec, func(_ string, v *yaml.Node, p string) {
				svc.Spec.Selector = d.stringMap(v, p)
				if svc.Spec.Selector == nil {
					svc.Spec.Selector = map[string]string{}
				}
			})
		}
	})
	defaultNamespace(&svc.ObjectMeta)
	errs := validateObjectMeta(&svc.ObjectMeta, "metadata", true, labelName)
	for k, v := range svc.Spec.Selector {
		errs = append(errs, validateLabelName(keyed("spec.selector", k), k)...)
		errs = append(errs, validateLabelValue(keyed("spec.selector", k), v)...)
	}
	return svc, errs
}
