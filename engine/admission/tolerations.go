package admission

import (
	"slices"

	"podlab.dev/podlab/engine/api"
)

// DefaultTolerationSeconds is the plugin's default for both
// --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds.
const DefaultTolerationSeconds int64 = 300

// addDefaultTolerations is the DefaultTolerationSeconds admission plugin
// (plugin/pkg/admission/defaulttolerationseconds): a pod that does not
// already tolerate the not-ready / unreachable NoExecute taints (a
// toleration with that key or an empty key, and effect NoExecute or empty)
// gets `Exists … NoExecute for 300s` tolerations, so it is evicted five
// minutes after its node fails.
func addDefaultTolerations(pod *api.Pod) {
	notReady, unreachable := false, false
	for _, t := range pod.Spec.Tolerations {
		noExecute := t.Effect == api.TaintEffectNoExecute || t.Effect == ""
		if (t.Key == api.TaintNodeNotReady || t.Key == "") && noExecute {
			notReady = true
		}
		if (t.Key == api.TaintNodeUnreachable || t.Key == "") && noExecute {
			unreachable = true
		}
	}
	// the pod may share its tolerations with a template: append to a
	// clipped slice so a new array is made instead of writing past its end
	pod.Spec.Tolerations = slices.Clip(pod.Spec.Tolerations)
	if !notReady {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, defaultToleration(api.TaintNodeNotReady))
	}
	if !unreachable {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, defaultToleration(api.TaintNodeUnreachable))
	}
}

func defaultToleration(key string) api.Toleration {
	secs := DefaultTolerationSeconds
	return api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &secs}
}
