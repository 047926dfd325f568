package manifest

import (
	"time"

	"podlab.dev/podlab/engine/api"
)

// Objects is what a manifest file holds, each kind in file order.
type Objects struct {
	Nodes                []*api.Node
	Pods                 []*api.Pod
	Namespaces           []*api.Namespace
	PriorityClasses      []*api.PriorityClass
	PodDisruptionBudgets []*api.PodDisruptionBudget
	Deployments          []*api.Deployment
	ReplicaSets          []*api.ReplicaSet
	StatefulSets         []*api.StatefulSet
	DaemonSets           []*api.DaemonSet
	Jobs                 []*api.Job
	CronJobs             []*api.CronJob
	// Services are the selectors of v1 Services (service.go).
	Services []*api.Service
	// SchedulerConfigs are KubeSchedulerConfiguration documents.
	SchedulerConfigs       []*SchedulerConfiguration
	ReplicationControllers []*api.ReplicationController
	HPAs                   []*api.HorizontalPodAutoscaler

	// Order holds every object above (the same pointers) in file order.
	Order []any
	// Pos is where each object (keyed by its pointer) starts.
	Pos map[any]Position
	// Warnings are unknown fields, ignored kinds and summaries, in file order.
	Warnings []Diagnostic
	// Reference is the instant api.Time 0 stands for (zero if the file has
	// no timestamps and Options.Reference was not set).
	Reference time.Time

	fieldPos map[any]map[string]Position
}

// PosOf returns where obj (a pointer from Objects) starts in the file.
func (o *Objects) PosOf(obj any) Position { return o.Pos[obj] }

// FieldPos returns the position of a field of obj by its API path
// ("spec.topologySpreadConstraints[0].maxSkew"), falling back to the
// nearest enclosing field. It needs Options.KeepFieldPositions; without it
// it returns the object's position.
func (o *Objects) FieldPos(obj any, path string) Position {
	if p, ok := lookupPath(o.fieldPos[obj], path); ok {
		return p
	}
	return o.Pos[obj]
}

// lookupPath finds path in pos, trimming trailing ".field" and "[i]"
// segments until something is found.
func lookupPath(pos map[string]Position, path string) (Position, bool) {
	for path != "" {
		if p, ok := pos[path]; ok {
			return p, true
		}
		cut := -1
		for i := len(path) - 1; i >= 0; i-- {
			if path[i] == '.' || path[i] == '[' {
				cut = i
				break
			}
		}
		if cut < 0 {
			break
		}
		path = path[:cut]
	}
	return Position{}, false
}

func (o *Objects) add(obj any, p Position) {
	switch v := obj.(type) {
	case *api.Node:
		o.Nodes = append(o.Nodes, v)
	case *api.Pod:
		o.Pods = append(o.Pods, v)
	case *api.Namespace:
		o.Namespaces = append(o.Namespaces, v)
	case *api.PriorityClass:
		o.PriorityClasses = append(o.PriorityClasses, v)
	case *api.PodDisruptionBudget:
		o.PodDisruptionBudgets = append(o.PodDisruptionBudgets, v)
	case *api.Deployment:
		o.Deployments = append(o.Deployments, v)
	case *api.ReplicaSet:
		o.ReplicaSets = append(o.ReplicaSets, v)
	case *api.ReplicationController:
		o.ReplicationControllers = append(o.ReplicationControllers, v)
	case *api.StatefulSet:
		o.StatefulSets = append(o.StatefulSets, v)
	case *api.DaemonSet:
		o.DaemonSets = append(o.DaemonSets, v)
	case *api.Job:
		o.Jobs = append(o.Jobs, v)
	case *api.CronJob:
		o.CronJobs = append(o.CronJobs, v)
	case *api.Service:
		o.Services = append(o.Services, v)
	case *SchedulerConfiguration:
		o.SchedulerConfigs = append(o.SchedulerConfigs, v)
	case *api.HorizontalPodAutoscaler:
		o.HPAs = append(o.HPAs, v)
	}
	o.Order = append(o.Order, obj)
	o.Pos[obj] = p
}

// PriorityClassMap returns the file's priority classes by name, the form
// admission.AdmitPod takes.
func (o *Objects) PriorityClassMap() map[string]*api.PriorityClass {
	m := make(map[string]*api.PriorityClass, len(o.PriorityClasses))
	for _, pc := range o.PriorityClasses {
		m[pc.Name] = pc
	}
	return m
}
