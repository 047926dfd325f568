package manifest

import (
	"podlab.dev/podlab/engine/api"
)

// Workload validation after pkg/apis/apps/validation and
// pkg/apis/batch/validation: a selector that matches the template's labels,
// non-negative counts, known strategy types, and the template's pod spec.

func validateWorkloadMeta(m *api.ObjectMeta) []fieldError {
	return validateObjectMeta(m, "metadata", true, subdomainName)
}

// validateSelectorAndTemplate checks the selector (required, non-empty,
// matching the template labels) and the template's pod spec.
func validateSelectorAndTemplate(sel *api.LabelSelector, t *api.PodTemplateSpec, kind, selPath, tplPath string, selectorRequired bool) []fieldError {
	var out []fieldError
	if sel == nil {
		if selectorRequired {
			// A nil selector selects nothing, so upstream also reports
			// the template's labels as not matching.
			out = append(out, required(selPath, "").withHint("e.g. selector: {matchLabels: {app: web}} matching the template's labels"),
				invalid(join(tplPath, "metadata.labels"), t.Labels, "`selector` does not match template `labels`"))
		}
	} else {
		out = append(out, validateLabelSelector(sel, selPath)...)
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			out = append(out, invalid(selPath, sel, "empty selector is invalid for "+kind))
		} else if compiled, err := api.CompileSelector(sel); err == nil && !compiled.Matches(t.Labels) {
			out = append(out, invalid(join(tplPath, "metadata.labels"), t.Labels, "`selector` does not match template `labels`").
				withHint("every label of spec.selector must be on spec.template.metadata.labels"))
		}
	}
	out = append(out, validateLabels(join(tplPath, "metadata.labels"), t.Labels)...)
	out = append(out, validateCPUUsageAnnotation(t.Annotations, join(tplPath, "metadata.annotations"))...)
	out = append(out, validateMemoryUsageAnnotation(t.Annotations, join(tplPath, "metadata.annotations"))...)
	return append(out, validatePodSpec(&t.Spec, join(tplPath, "spec"), t.Labels)...)
}

func validateReplicas(r *int32, path string) []fieldError {
	if r == nil {
		return nil
	}
	return nonNegative(path, int64(*r))
}

func validateDeployment(dep *api.Deployment) []fieldError {
	s := &dep.Spec
	out := validateWorkloadMeta(&dep.ObjectMeta)
	out = append(out, validateReplicas(s.Replicas, "spec.replicas")...)
	out = append(out, validateSelectorAndTemplate(s.Selector, &s.Template, "deployment", "spec.selector", "spec.template", true)...)
	out = append(out, templateRestartAlways(&s.Template, "spec.template.spec.restartPolicy")...)
	switch s.Strategy.Type {
	case "", api.RollingUpdateDeploymentStrategyType:
		if ru := s.Strategy.RollingUpdate; ru != nil {
			out = append(out, validateRollingUpdate(ru.MaxUnavailable, ru.MaxSurge, "spec.strategy.rollingUpdate")...)
		}
	case api.RecreateDeploymentStrategyType:
		if s.Strategy.RollingUpdate != nil {
			out = append(out, forbidden("spec.strategy.rollingUpdate", "may not be specified when strategy `type` is 'Recreate'"))
		}
	default:
		e := notSupported("spec.strategy", strategyValue(s.Strategy.Type, s.Strategy.RollingUpdate != nil, rollingValue(s.Strategy.RollingUpdate)), api.RecreateDeploymentStrategyType, api.RollingUpdateDeploymentStrategyType)
		e.at = "spec.strategy.type"
		out = append(out, e)
	}
	out = append(out, nonNegative("spec.minReadySeconds", int64(s.MinReadySeconds))...)
	if s.RevisionHistoryLimit != nil {
		out = append(out, nonNegative("spec.revisionHistoryLimit", int64(*s.RevisionHistoryLimit))...)
	}
	if s.ProgressDeadlineSeconds != nil {
		out = append(out, positive("spec.progressDeadlineSeconds", int64(*s.ProgressDeadlineSeconds))...)
		if int64(*s.ProgressDeadlineSeconds) <= int64(s.MinReadySeconds) {
			out = append(out, invalid("spec.progressDeadlineSeconds", *s.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return out
}

// validateRollingUpdate is ValidateRollingUpdateDeployment: both
// non-negative ints or percents, maxUnavailable ≤ 100%, not both zero.
func validateRollingUpdate(maxUnavailable, maxSurge *api.IntOrString, path string) []fieldError {
	var out []fieldError
	if maxUnavailable != nil {
		out = append(out, validateIntOrPercent(*maxUnavailable, join(path, "maxUnavailable"), true)...)
	}
	if maxSurge != nil {
		out = append(out, validateIntOrPercent(*maxSurge, join(path, "maxSurge"), false)...)
	}
	if isZero(maxUnavailable) && isZero(maxSurge) {
		out = append(out, invalid(join(path, "maxUnavailable"), intOrStringAny(maxUnavailable), "may not be 0 when `maxSurge` is 0"))
	}
	return out
}

func isZero(v *api.IntOrString) bool {
	if v == nil {
		return false // defaulted to 25%
	}
	if v.IsString {
		n, ok := parsePercent(v.StrVal)
		return ok && n == 0
	}
	return v.IntVal == 0
}

func intOrStringAny(v *api.IntOrString) any {
	if v.IsString {
		return v.StrVal
	}
	return v.IntVal
}

// templateRestartAlways: apps workloads run pods that restart forever.
func templateRestartAlways(t *api.PodTemplateSpec, path string) []fieldError {
	if p := t.Spec.RestartPolicy; p != "" && p != "Always" {
		return []fieldError{notSupported(path, p, "Always")}
	}
	return nil
}

func validateReplicaSet(rs *api.ReplicaSet) []fieldError {
	s := &rs.Spec
	out := validateWorkloadMeta(&rs.ObjectMeta)
	out = append(out, validateReplicas(s.Replicas, "spec.replicas")...)
	out = append(out, nonNegative("spec.minReadySeconds", int64(s.MinReadySeconds))...)
	out = append(out, validateSelectorAndTemplate(s.Selector, &s.Template, "deployment", "spec.selector", "spec.template", true)...)
	return append(out, templateRestartAlways(&s.Template, "spec.template.spec.restartPolicy")...)
}

func validateStatefulSet(sts *api.StatefulSet) []fieldError {
	s := &sts.Spec
	out := validateWorkloadMeta(&sts.ObjectMeta)
	out = append(out, validateReplicas(s.Replicas, "spec.replicas")...)
	out = append(out, nonNegative("spec.minReadySeconds", int64(s.MinReadySeconds))...)
	switch s.PodManagementPolicy {
	case "", api.OrderedReadyPodManagement, api.ParallelPodManagement:
	default:
		out = append(out, invalid("spec.podManagementPolicy", s.PodManagementPolicy,
			"must be 'OrderedReady' or 'Parallel'"))
	}
	switch s.UpdateStrategy.Type {
	case "", api.RollingUpdateDeploymentStrategyType:
		if ru := s.UpdateStrategy.RollingUpdate; ru != nil {
			if ru.Partition != nil {
				out = append(out, nonNegative("spec.updateStrategy.rollingUpdate.partition", int64(*ru.Partition))...)
			}
		}
	case api.OnDeleteStrategyType:
		if s.UpdateStrategy.RollingUpdate != nil {
			out = append(out, invalid("spec.updateStrategy.rollingUpdate", stsRollingValue(s.UpdateStrategy.RollingUpdate), "only allowed for updateStrategy 'RollingUpdate'"))
		}
	default:
		e := invalid("spec.updateStrategy", strategyValue(s.UpdateStrategy.Type, s.UpdateStrategy.RollingUpdate != nil, stsRollingValue(s.UpdateStrategy.RollingUpdate)), "must be 'RollingUpdate' or 'OnDelete'")
		e.at = "spec.updateStrategy.type"
		out = append(out, e)
	}
	out = append(out, nonNegative("spec.ordinals.start", int64(s.OrdinalsStart))...)
	out = append(out, validateSelectorAndTemplate(s.Selector, &s.Template, "statefulset", "spec.selector", "spec.template", true)...)
	return append(out, templateRestartAlways(&s.Template, "spec.template.spec.restartPolicy")...)
}

func validateDaemonSet(ds *api.DaemonSet) []fieldError {
	s := &ds.Spec
	out := validateWorkloadMeta(&ds.ObjectMeta)
	out = append(out, validateSelectorAndTemplate(s.Selector, &s.Template, "daemonset", "spec.selector", "spec.template", true)...)
	out = append(out, templateRestartAlways(&s.Template, "spec.template.spec.restartPolicy")...)
	if s.Template.Spec.ActiveDeadlineSeconds != nil {
		out = append(out, forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in DaemonSet is not Supported"))
	}
	out = append(out, nonNegative("spec.minReadySeconds", int64(s.MinReadySeconds))...)
	switch s.UpdateStrategy.Type {
	case "", api.RollingUpdateDeploymentStrategyType:
		if ru := s.UpdateStrategy.RollingUpdate; ru != nil {
			out = append(out, validateRollingUpdate(ru.MaxUnavailable, ru.MaxSurge, "spec.updateStrategy.rollingUpdate")...)
		}
	case api.OnDeleteStrategyType:
	default:
		var ru any
		if r := s.UpdateStrategy.RollingUpdate; r != nil {
			ru = rollingValue(&api.RollingUpdateDeployment{MaxUnavailable: r.MaxUnavailable, MaxSurge: r.MaxSurge})
		}
		e := notSupported("spec.updateStrategy", strategyValue(s.UpdateStrategy.Type, ru != nil, ru), api.RollingUpdateDeploymentStrategyType, api.OnDeleteStrategyType)
		e.at = "spec.updateStrategy.type"
		out = append(out, e)
	}
	return out
}

// validateJobSpec follows pkg/apis/batch/validation validateJobSpec: the
// selector is generated unless manualSelector, restartPolicy must be
// OnFailure or Never.
func validateJobSpec(s *api.JobSpec, path string, inCronJob bool) []fieldError {
	var out []fieldError
	sel := join(path, "selector")
	switch {
	case inCronJob && s.Selector != nil:
		// ValidateJobTemplateSpec
		out = append(out, invalid(sel, s.Selector, "`selector` will be auto-generated").withHint("remove it"))
	case inCronJob && s.ManualSelector:
		out = append(out, notSupported(join(path, "manualSelector"), true, "nil", "false"))
	case s.Selector != nil && !s.ManualSelector:
		// validateGeneratedSelector: the generated selector names the
		// Job's uid, which no hand-written selector matches.
		out = append(out, invalid(sel, s.Selector, "`selector` not auto-generated").
			withHint("remove spec.selector (the API server generates one) or set manualSelector: true"))
	}
	for _, f := range []struct {
		name string
		v    *int32
	}{{"parallelism", s.Parallelism}, {"completions", s.Completions}, {"backoffLimit", s.BackoffLimit}, {"ttlSecondsAfterFinished", s.TTLSecondsAfterFinished}} {
		if f.v != nil {
			out = append(out, nonNegative(join(path, f.name), int64(*f.v))...)
		}
	}
	if s.ActiveDeadlineSeconds != nil {
		out = append(out, nonNegative(join(path, "activeDeadlineSeconds"), *s.ActiveDeadlineSeconds)...)
	}
	switch s.CompletionMode {
	case "", "NonIndexed", "Indexed":
	default:
		out = append(out, notSupported(join(path, "completionMode"), s.CompletionMode, "NonIndexed", "Indexed"))
	}
	tpl := join(path, "template")
	if s.ManualSelector && !inCronJob {
		out = append(out, validateSelectorAndTemplate(s.Selector, &s.Template, "job", sel, tpl, true)...)
	} else {
		out = append(out, validateSelectorAndTemplate(nil, &s.Template, "job", sel, tpl, false)...)
	}
	switch s.Template.Spec.RestartPolicy {
	case "OnFailure", "Never":
	case "", "Always": // "" is defaulted to Always before validation
		out = append(out, required(join(tpl, "spec.restartPolicy"), "valid values: \"OnFailure\", \"Never\"").
			withHint("a Job's pods must not restart forever: add restartPolicy: Never or OnFailure"))
	default:
		out = append(out, notSupported(join(tpl, "spec.restartPolicy"), s.Template.Spec.RestartPolicy, "OnFailure", "Never"))
	}
	return out
}

func validateJob(job *api.Job) []fieldError {
	return append(validateWorkloadMeta(&job.ObjectMeta), validateJobSpec(&job.Spec, "spec", false)...)
}

func validateCronJob(cj *api.CronJob) []fieldError {
	s := &cj.Spec
	out := validateWorkloadMeta(&cj.ObjectMeta)
	if s.Schedule == "" {
		out = append(out, required("spec.schedule", "").withHint(`e.g. schedule: "*/5 * * * *"`))
	} else if err := validateCronSchedule(s.Schedule); err != "" {
		out = append(out, invalid("spec.schedule", s.Schedule, err))
	}
	switch s.ConcurrencyPolicy {
	case "", "Allow", "Forbid", "Replace":
	default:
		out = append(out, notSupported("spec.concurrencyPolicy", s.ConcurrencyPolicy, "Allow", "Forbid", "Replace"))
	}
	if s.StartingDeadlineSeconds != nil {
		out = append(out, nonNegative("spec.startingDeadlineSeconds", *s.StartingDeadlineSeconds)...)
	}
	for _, f := range []struct {
		name string
		v    *int32
	}{{"successfulJobsHistoryLimit", s.SuccessfulJobsHistoryLimit}, {"failedJobsHistoryLimit", s.FailedJobsHistoryLimit}} {
		if f.v != nil {
			out = append(out, nonNegative("spec."+f.name, int64(*f.v))...)
		}
	}
	return append(out, validateJobSpec(&s.JobTemplate.Spec, "spec.jobTemplate.spec", true)...)
}

// The values upstream prints for a bad strategy are internal apps types
// without JSON tags, so their Go field names show.

func intOrStringJSON(v *api.IntOrString) any {
	if v == nil {
		return nil
	}
	if v.IsString {
		return v.StrVal
	}
	return v.IntVal
}

// internalIntOrString renders a field that is a plain IntOrString in the
// internal type: unset is 0.
func internalIntOrString(v *api.IntOrString) any {
	if v == nil {
		return 0
	}
	if v.IsString {
		return v.StrVal
	}
	return v.IntVal
}

func strategyValue(typ string, hasRolling bool, rolling any) any {
	if !hasRolling {
		rolling = nil
	}
	return struct {
		Type          string
		RollingUpdate any
	}{typ, rolling}
}

func rollingValue(r *api.RollingUpdateDeployment) any {
	if r == nil {
		return nil
	}
	return struct{ MaxUnavailable, MaxSurge any }{internalIntOrString(r.MaxUnavailable), internalIntOrString(r.MaxSurge)}
}

func stsRollingValue(r *api.RollingUpdateStatefulSetStrategy) any {
	if r == nil {
		return nil
	}
	var partition int32
	if r.Partition != nil {
		partition = *r.Partition
	}
	return struct {
		Partition      int32
		MaxUnavailable any
	}{partition, intOrStringJSON(r.MaxUnavailable)}
}
