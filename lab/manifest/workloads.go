package manifest

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

// workload decodes the shared envelope of apps/batch objects: metadata
// and a spec handled by spec; status is the controllers' business and is
// ignored.
func (d *decoder) workload(n *yaml.Node, m *api.ObjectMeta, spec func(v *yaml.Node, p string)) {
	d.fields(n, "", schemaTop, func(key string, v *yaml.Node, path string) {
		switch key {
		case "metadata":
			d.meta(v, path, m, true)
		case "spec":
			spec(v, path)
		case "status":
			// recomputed by the lab's controllers
		}
	})
	defaultNamespace(m)
}

func (d *decoder) template(n *yaml.Node, path string, t *api.PodTemplateSpec) {
	d.fields(n, path, schemaTemplate, func(key string, v *yaml.Node, p string) {
		switch key {
		case "metadata":
			d.meta(v, p, &t.ObjectMeta, false)
		case "spec":
			d.podSpec(v, p, &t.Spec)
		}
	})
}

// rollingUpdate decodes the maxUnavailable/maxSurge pair that
// Deployments and DaemonSets share.
func (d *decoder) rollingUpdate(n *yaml.Node, path string) (maxUnavailable, maxSurge *api.IntOrString) {
	d.fields(n, path, schemaRollingUpdate, func(key string, v *yaml.Node, p string) {
		if key == "maxUnavailable" {
			maxUnavailable = d.intOrString(v, p)
		} else {
			maxSurge = d.intOrString(v, p)
		}
	})
	return maxUnavailable, maxSurge
}

func decodeDeployment(d *decoder, n *yaml.Node) (any, []fieldError) {
	dep := &api.Deployment{}
	s := &dep.Spec
	d.workload(n, &dep.ObjectMeta, func(v *yaml.Node, path string) {
		d.fields(v, path, schemaDeploymentSpec, func(key string, v *yaml.Node, p string) {
			switch key {
			case "replicas":
				s.Replicas = d.int32p(v, p)
			case "selector":
				s.Selector = d.labelSelector(v, p)
			case "template":
				d.template(v, p, &s.Template)
			case "strategy":
				d.fields(v, p, schemaDeployStrategy, func(key string, v *yaml.Node, p string) {
					switch key {
					case "type":
						s.Strategy.Type = d.str(v, p)
					case "rollingUpdate":
						ru := &api.RollingUpdateDeployment{}
						ru.MaxUnavailable, ru.MaxSurge = d.rollingUpdate(v, p)
						s.Strategy.RollingUpdate = ru
					}
				})
			case "minReadySeconds":
				s.MinReadySeconds, _ = d.int32(v, p)
			case "revisionHistoryLimit":
				s.RevisionHistoryLimit = d.int32p(v, p)
			case "paused":
				s.Paused = d.boolean(v, p)
			case "progressDeadlineSeconds":
				s.ProgressDeadlineSeconds = d.int32p(v, p)
			}
		})
	})
	return dep, validateDeployment(dep)
}

func decodeReplicaSet(d *decoder, n *yaml.Node) (any, []fieldError) {
	rs := &api.ReplicaSet{}
	s := &rs.Spec
	d.workload(n, &rs.ObjectMeta, func(v *yaml.Node, path string) {
		d.fields(v, path, schemaReplicaSetSpec, func(key string, v *yaml.Node, p string) {
			switch key {
			case "replicas":
				s.Replicas = d.int32p(v, p)
			case "selector":
				s.Selector = d.labelSelector(v, p)
			case "template":
				d.template(v, p, &s.Template)
			case "minReadySeconds":
				s.MinReadySeconds, _ = d.int32(v, p)
			}
		})
	})
	return rs, validateReplicaSet(rs)
}

func decodeStatefulSet(d *decoder, n *yaml.Node) (any, []fieldError) {
	sts := &api.StatefulSet{}
	s := &sts.Spec
	d.workload(n, &sts.ObjectMeta, func(v *yaml.Node, path string) {
		d.fields(v, path, schemaStatefulSetSpec, func(key string, v *yaml.Node, p string) {
			switch key {
			case "replicas":
				s.Replicas = d.int32p(v, p)
			case "selector":
				s.Selector = d.labelSelector(v, p)
			case "template":
				d.template(v, p, &s.Template)
			case "serviceName":
				s.ServiceName = d.str(v, p)
			case "podManagementPolicy":
				s.PodManagementPolicy = d.str(v, p)
			case "updateStrategy":
				d.fields(v, p, schemaSTSStrategy, func(key string, v *yaml.Node, p string) {
					switch key {
					case "type":
						s.UpdateStrategy.Type = d.str(v, p)
					case "rollingUpdate":
						ru := &api.RollingUpdateStatefulSetStrategy{}
						d.fields(v, p, schemaSTSRollingUpdate, func(key string, v *yaml.Node, p string) {
							if key == "partition" {
								ru.Partition = d.int32p(v, p)
								return
							}
							// The API server drops the field while
							// MaxUnavailableStatefulSet is off (beta,
							// off by default in 1.36).
							if d.intOrString(v, p) != nil {
								d.found = append(d.found, fieldError{path: p, warning: true,
									msg: "ignored: the MaxUnavailableStatefulSet feature gate is off by default in Kubernetes 1.36, so the API server drops this field"})
							}
						})
						s.UpdateStrategy.RollingUpdate = ru
					}
				})
			case "minReadySeconds":
				s.MinReadySeconds, _ = d.int32(v, p)
			case "revisionHistoryLimit":
				s.RevisionHistoryLimit = d.int32p(v, p)
			case "ordinals":
				d.fields(v, p, schemaOrdinals, func(_ string, v *yaml.Node, p string) {
					s.OrdinalsStart, _ = d.int32(v, p)
				})
			}
		})
	})
	return sts, validateStatefulSet(sts)
}

func decodeDaemonSet(d *decoder, n *yaml.Node) (any, []fieldError) {
	ds := &api.DaemonSet{}
	s := &ds.Spec
	d.workload(n, &ds.ObjectMeta, func(v *yaml.Node, path string) {
		d.fields(v, path, schemaDaemonSetSpec, func(key string, v *yaml.Node, p string) {
			switch key {
			case "selector":
				s.Selector = d.labelSelector(v, p)
			case "template":
				d.template(v, p, &s.Template)
			case "updateStrategy":
				d.fields(v, p, schemaDeployStrategy, func(key string, v *yaml.Node, p string) {
					switch key {
					case "type":
						s.UpdateStrategy.Type = d.str(v, p)
					case "rollingUpdate":
						ru := &api.RollingUpdateDaemonSet{}
						ru.MaxUnavailable, ru.MaxSurge = d.rollingUpdate(v, p)
						s.UpdateStrategy.RollingUpdate = ru
					}
				})
			case "minReadySeconds":
				s.MinReadySeconds, _ = d.int32(v, p)
			}
		})
	})
	return ds, validateDaemonSet(ds)
}

func (d *decoder) jobSpec(n *yaml.Node, path string, s *api.JobSpec) {
	d.fields(n, path, schemaJobSpec, func(key string, v *yaml.Node, p string) {
		switch key {
		case "parallelism":
			s.Parallelism = d.int32p(v, p)
		case "completions":
			s.Completions = d.int32p(v, p)
		case "backoffLimit":
			s.BackoffLimit = d.int32p(v, p)
		case "activeDeadlineSeconds":
			s.ActiveDeadlineSeconds = d.int64p(v, p)
		case "ttlSecondsAfterFinished":
			s.TTLSecondsAfterFinished = d.int32p(v, p)
		case "completionMode":
			s.CompletionMode = d.str(v, p)
		case "suspend":
			s.Suspend = d.boolean(v, p)
		case "selector":
			s.Selector = d.labelSelector(v, p)
		case "manualSelector":
			s.ManualSelector = d.boolean(v, p)
		case "template":
			d.template(v, p, &s.Template)
		}
	})
}

func decodeJob(d *decoder, n *yaml.Node) (any, []fieldError) {
	job := &api.Job{}
	d.workload(n, &job.ObjectMeta, func(v *yaml.Node, path string) { d.jobSpec(v, path, &job.Spec) })
	return job, validateJob(job)
}

func decodeCronJob(d *decoder, n *yaml.Node) (any, []fieldError) {
	cj := &api.CronJob{}
	s := &cj.Spec
	d.workload(n, &cj.ObjectMeta, func(v *yaml.Node, path string) {
		d.fields(v, path, schemaCronJobSpec, func(key string, v *yaml.Node, p string) {
			switch key {
			case "schedule":
				s.Schedule = d.str(v, p)
			case "timeZone":
				s.TimeZone = d.strp(v, p)
			case "startingDeadlineSeconds":
				s.StartingDeadlineSeconds = d.int64p(v, p)
			case "concurrencyPolicy":
				s.ConcurrencyPolicy = d.str(v, p)
			case "suspend":
				s.Suspend = d.boolean(v, p)
			case "jobTemplate":
				d.fields(v, p, schemaTemplate, func(key string, v *yaml.Node, p string) {
					if key == "metadata" {
						d.meta(v, p, &s.JobTemplate.ObjectMeta, false)
					} else {
						d.jobSpec(v, p, &s.JobTemplate.Spec)
					}
				})
			case "successfulJobsHistoryLimit":
				s.SuccessfulJobsHistoryLimit = d.int32p(v, p)
			case "failedJobsHistoryLimit":
				s.FailedJobsHistoryLimit = d.int32p(v, p)
			}
		})
	})
	return cj, validateCronJob(cj)
}
