package engine

import "fmt"

// The object budget bounds the work any valid input can cause: a
// Deployment of 1,000,000,000 replicas is valid (spec.replicas is an
// int32) but would make the controllers create pods until memory runs
// out. With Config.MaxObjects set, the engine refuses a pod or a node that
// would take the cluster's pods and nodes over it, as a ResourceQuota on
// `count` would: the controllers see the refusal and raise their
// FailedCreate event ("Error creating: pods "web-…" is forbidden:
// exceeded quota: …"), then back off as they do after any failed create.

// ObjectBudgetName names the budget in refusals where a ResourceQuota's
// name would be.
const ObjectBudgetName = "podlab-object-budget"

// BudgetError is the refusal of objects that would take the cluster over
// Config.MaxObjects. Its text is the ResourceQuota admission plugin's
// (plugin/pkg/admission/resourcequota/controller.go, CheckRequest:
// admission.NewForbidden(a, fmt.Errorf("exceeded quota: %s, requested: %s,
// used: %s, limited: %s", …))), with apierrors.NewForbidden's
// `<resource> "<name>" is forbidden: ` in front.
type BudgetError struct {
	Resource string // "pods", "nodes" (the API's plural resource name)
	Name     string // the object refused; "" for a batch (a scale, a zone)
	// Requested is how many objects were asked for, Used how many the
	// cluster holds, Limit the budget.
	Requested, Used, Limit int64
}

func (e *BudgetError) Error() string {
	quota := fmt.Sprintf("exceeded quota: %s, requested: objects=%d, used: objects=%d, limited: objects=%d",
		ObjectBudgetName, e.Requested, e.Used, e.Limit)
	if e.Name == "" {
		return e.Resource + " is forbidden: " + quota
	}
	return fmt.Sprintf("%s %q is forbidden: %s", e.Resource, e.Name, quota)
}

// ObjectCount is what the object budget counts: the cluster's pods (any
// phase, until they are removed) and nodes.
func (e *Engine) ObjectCount() int { return e.pods.Len() + len(e.nodes) }

// MaxObjects is the object budget (Config.MaxObjects); 0 means none.
func (e *Engine) MaxObjects() int { return max(e.cfg.MaxObjects, 0) }

// CheckObjects reports whether n more objects of resource fit the budget:
// nil, or a *BudgetError naming name. The lab asks it before a scale or
// `add zone` so that the command is refused whole, with the message the
// controllers would see object by object.
func (e *Engine) CheckObjects(resource, name string, n int64) error {
	limit := int64(e.MaxObjects())
	if limit == 0 || n <= 0 {
		return nil
	}
	used := int64(e.ObjectCount())
	if used+n <= limit {
		return nil
	}
	return &BudgetError{Resource: resource, Name: name, Requested: n, Used: used, Limit: limit}
}

// MaxObjects tells the controllers the budget (they size per-replica
// work by it).
func (c clusterAPI) MaxObjects() int { return c.e.MaxObjects() }
