package scenario

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/admission"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	core "k8s.io/kubernetes/pkg/apis/core"
	podregistry "k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds"
)

var tolerationSeconds = func() *defaulttolerationseconds.Plugin {
	p := defaulttolerationseconds.NewDefaultTolerationSeconds()
	p.InspectFeatureGates(utilfeature.DefaultFeatureGate)
	return p
}()

// admitPod runs what the API server does to a pod on create after
// decoding and defaulting: the DefaultTolerationSeconds admission plugin
// and the pod strategy's PrepareForCreate (pkg/registry/core/pod/strategy.go:
// matchLabelKeys/mismatchLabelKeys merged into pod affinity selectors,
// topology spread matchLabelKeys, scheduling-gated condition), both the
// real code run on the internal type. The status the file gives (phase,
// start time, nominated node) is kept, as for a pod imported from a
// running cluster.
func admitPod(p *v1.Pod) error {
	internal := &core.Pod{}
	if err := legacyscheme.Scheme.Convert(p, internal, nil); err != nil {
		return fmt.Errorf("convert pod %s/%s: %w", p.Namespace, p.Name, err)
	}
	attrs := admission.NewAttributesRecord(internal, nil, core.Kind("Pod").WithVersion("v1"), p.Namespace, p.Name,
		core.Resource("pods").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	if err := tolerationSeconds.Admit(context.Background(), attrs, nil); err != nil {
		return fmt.Errorf("admit pod %s/%s: %w", p.Namespace, p.Name, err)
	}
	status := p.Status
	podregistry.Strategy.PrepareForCreate(context.Background(), internal)
	out := &v1.Pod{}
	if err := legacyscheme.Scheme.Convert(internal, out, nil); err != nil {
		return fmt.Errorf("convert pod %s/%s back: %w", p.Namespace, p.Name, err)
	}
	conds := out.Status.Conditions
	*p = *out
	p.Status = status
	if p.Spec.NodeName == "" {
		// PrepareForCreate's SchedulingGated condition for gated pods.
		p.Status.Conditions = append(p.Status.Conditions, conds...)
	}
	return nil
}
