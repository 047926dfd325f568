// Package attach is a convenience over engine.Workloads (the engine's
// adapter that runs engine/controllers' Manager): it starts the
// controllers after loading and runs user operations at the current
// instant, letting the cluster settle.
package attach

import (
	"fmt"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/controllers"
)

// Controllers is the controllers attached to one engine.
type Controllers struct {
	*controllers.Manager
	e *engine.Engine
	w *engine.Workloads
}

// New attaches a Manager to the engine (seed drives generated pod names
// and UIDs). The controllers do nothing until Start: load the whole
// scenario first.
func New(e *engine.Engine, seed int64) *Controllers {
	w := e.NewWorkloads(seed)
	return &Controllers{Manager: w.Manager, e: e, w: w}
}

// Start lets the controllers act and reconciles at the current instant.
func (c *Controllers) Start() error {
	c.Manager.Start()
	c.e.Settle()
	return nil
}

// Do runs a user operation on the controllers (scale, rollout undo,
// delete …) at the current instant and lets the cluster settle.
func (c *Controllers) Do(op func(m *controllers.Manager) error) error {
	c.SetNow(c.e.Now())
	err := op(c.Manager)
	c.e.Settle()
	return err
}

type workloadsOf interface{ Workloads() *engine.Workloads }

// Clone returns the controllers of a clone of their engine (engine.Clone
// copies the registered Workloads).
func (c *Controllers) Clone(clone *engine.Engine) (*Controllers, error) {
	g, ok := any(clone).(workloadsOf)
	if !ok {
		return nil, fmt.Errorf("clone controllers: the engine does not expose its Workloads")
	}
	w := g.Workloads()
	if w == nil {
		return nil, fmt.Errorf("clone controllers: the cloned engine has no Workloads")
	}
	return &Controllers{Manager: w.Manager, e: clone, w: w}, nil
}
