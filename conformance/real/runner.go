// Package real runs the real kube-scheduler v1.36 framework in-process on a
// scenario: the default profile (v1 KubeSchedulerConfiguration defaults)
// built with frameworkruntime.NewFramework from the in-tree registry, a
// fake clientset with started informers, and the scheduler cache
// (backend/cache) that refreshes one snapshot before every cycle, the way
// pkg/scheduler/scheduler.go wires them. The scheduling cycle follows
// pkg/scheduler/schedule_one.go (schedulePod, findNodesThatFitPod,
// evaluateNominatedNode, prioritizeNodes) with two deliberate
// differences: every node is evaluated (no numFeasibleNodesToFind
// cut-off) and ties go to the smallest node name.
package real

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/go-logr/logr"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	configv1 "k8s.io/kube-scheduler/config/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	schedvalidation "k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	utilfeature "k8s.io/apiserver/pkg/util/feature"

	"podlab.dev/podlab/conformance/scenario"
)

// Options tune the runner.
type Options struct {
	// Parallelism is the framework's parallelism (goroutines for Filter,
	// Score and preemption dry runs); 0 ⇒ 2. No effect on decisions.
	Parallelism int
	// DisablePreemption skips DefaultPreemption after a failed cycle.
	DisablePreemption bool
}

// Runner holds one framework instance over one cluster state.
type Runner struct {
	ctx    context.Context
	cancel context.CancelFunc
	logger klog.Logger

	fw framework.Framework
	// profiles by scheduler name; fw, preempt and weights are the current
	// cycle's (use).
	profiles map[string]*profileFW
	cache    internalcache.Cache
	snap     *internalcache.Snapshot
	preempt  *defaultpreemption.DefaultPreemption

	weights  map[string]int64
	numNodes int
	bound    map[string]*v1.Pod // namespace/name → pod (as stored in the cache)
	pdbs     []*policyv1.PodDisruptionBudget
	seq      int // bind sequence, for synthetic start times
}

// New builds a runner over a scenario's nodes and bound pods.
func New(s *scenario.Scenario, opts Options) (*Runner, error) {
	if opts.Parallelism <= 0 {
		opts.Parallelism = 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	logger := klog.Background()
	ctx = klog.NewContext(ctx, logger)
	r := &Runner{ctx: ctx, cancel: cancel, logger: logger, bound: map[string]*v1.Pod{}}
	if err := r.build(s, opts); err != nil {
		cancel()
		return nil, err
	}
	return r, nil
}

// Close stops the informers.
func (r *Runner) Close() { r.cancel() }

// defaultProfile returns the default-scheduler profile exactly as
// scheduler.New derives it: v1 defaults converted to the internal config.
func defaultProfile() (*schedulerapi.KubeSchedulerProfile, error) {
	var versioned configv1.KubeSchedulerConfiguration
	scheme.Scheme.Default(&versioned)
	var cfg schedulerapi.KubeSchedulerConfiguration
	if err := scheme.Scheme.Convert(&versioned, &cfg, nil); err != nil {
		return nil, fmt.Errorf("convert scheduler config: %w", err)
	}
	if len(cfg.Profiles) == 0 {
		return nil, fmt.Errorf("default scheduler config has no profile")
	}
	return &cfg.Profiles[0], nil
}

var quietDefaulting sync.Once

// configProfile loads a KubeSchedulerConfiguration as kube-scheduler
// --config does (options.LoadConfigFromFile: the config scheme's
// universal decoder, which applies the v1 defaults and converts to the
// internal config), validates it (validation.ValidateKubeSchedulerConfiguration)
// and returns its profiles.
func configProfiles(data []byte) ([]*schedulerapi.KubeSchedulerProfile, error) {
	// v1 defaulting logs every re-configured default plugin at V(0)
	// through klog's global logger: keep the harness's output readable
	quietDefaulting.Do(func() { klog.SetLogger(logr.Discard()) })
	obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("decode scheduler config: %w", err)
	}
	cfg, ok := obj.(*schedulerapi.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("scheduler config: got %v", gvk)
	}
	if err := schedvalidation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, fmt.Errorf("scheduler config: %w", err)
	}
	out := make([]*schedulerapi.KubeSchedulerProfile, len(cfg.Profiles))
	for i := range cfg.Profiles {
		out[i] = &cfg.Profiles[i]
	}
	return out, nil
}

// profileFW is one profile's framework, its DefaultPreemption (nil when
// disabled) and score weights.
type profileFW struct {
	fw      framework.Framework
	preempt *defaultpreemption.DefaultPreemption
	weights map[string]int64
}

// hasPostFilter reports whether the framework runs the named PostFilter.
func hasPostFilter(fw framework.Framework, name string) bool {
	p := fw.ListPlugins()
	if p == nil {
		return false
	}
	for _, pl := range p.PostFilter.Enabled {
		if pl.Name == name {
			return true
		}
	}
	return false
}

// use selects the profile of the pod's spec.schedulerName for the cycle
// (profile.Map in pkg/scheduler/profile).
func (r *Runner) use(pod *v1.Pod) error {
	pf := r.profiles[pod.Spec.SchedulerName]
	if pf == nil {
		return fmt.Errorf("no profile for scheduler name %q", pod.Spec.SchedulerName)
	}
	r.fw, r.preempt, r.weights = pf.fw, pf.preempt, pf.weights
	return nil
}

func (r *Runner) build(s *scenario.Scenario, opts Options) error {
	metrics.Register()
	profile, err := defaultProfile()
	profiles := []*schedulerapi.KubeSchedulerProfile{profile}
	if s.SchedulerConfig != nil {
		profiles, err = configProfiles(s.SchedulerConfig)
	}
	if err != nil {
		return err
	}
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)

	// DRA manager wired as scheduler.New does (DynamicResourceAllocation is
	// GA); with no claims every DRA call is a no-op.
	var draManager fwk.SharedDRAManager
	if utilfeature.DefaultFeatureGate.Enabled(features.DynamicResourceAllocation) {
		claims := assumecache.NewAssumeCache(r.logger, factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
		topts := resourceslicetracker.Options{
			EnableDeviceTaintRules:   utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
			EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
			SliceInformer:            factory.Resource().V1().ResourceSlices(),
			KubeClient:               client,
		}
		if topts.EnableDeviceTaintRules {
			topts.TaintInformer = factory.Resource().V1beta2().DeviceTaintRules()
			topts.ClassInformer = factory.Resource().V1().DeviceClasses()
		}
		tracker, err := resourceslicetracker.StartTracker(r.ctx, topts)
		if err != nil {
			return fmt.Errorf("start resource slice tracker: %w", err)
		}
		draManager = dynamicresources.NewDRAManager(r.ctx, claims, tracker, factory)
	}

	r.cache = internalcache.New(r.ctx, nil, false)
	r.snap = internalcache.NewEmptySnapshot()
	r.profiles = map[string]*profileFW{}
	for i, profile := range profiles {
		fw, err := frameworkruntime.NewFramework(r.ctx, frameworkplugins.NewInTreeRegistry(), profile,
			frameworkruntime.WithClientSet(client),
			frameworkruntime.WithInformerFactory(factory),
			frameworkruntime.WithSharedDRAManager(draManager),
			frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(factory.Storage().V1().CSINodes().Lister())),
			frameworkruntime.WithSnapshotSharedLister(r.snap),
			frameworkruntime.WithPodNominator(noNominations{}),
			frameworkruntime.WithParallelism(opts.Parallelism),
			frameworkruntime.WithPodGroupManager(r.cache),
		)
		if err != nil {
			return fmt.Errorf("build framework %s: %w", profile.SchedulerName, err)
		}
		pf := &profileFW{fw: fw, weights: map[string]int64{}}
		r.fw = fw
		if !opts.DisablePreemption && hasPostFilter(fw, "DefaultPreemption") {
			pl, err := r.newPreemption(profile)
			if err != nil {
				return err
			}
			pf.preempt = pl
		}
		if p := fw.ListPlugins(); p != nil {
			for _, pl := range p.Score.Enabled {
				pf.weights[pl.Name] = int64(pl.Weight)
			}
		}
		r.profiles[profile.SchedulerName] = pf
		if i == 0 {
			r.fw, r.preempt, r.weights = pf.fw, pf.preempt, pf.weights
		}
	}
	// The informers are not started: the only objects plugins read through
	// listers are namespaces (InterPodAffinity's namespaceSelector),
	// services and replica sets (PodTopologySpread's default constraints),
	// put straight into the indexers. Starting and syncing would cost ≥100 ms of
	// polling per scenario.
	nsIndexer := factory.Core().V1().Namespaces().Informer().GetIndexer()
	for _, ns := range s.Namespaces {
		if err := nsIndexer.Add(ns.DeepCopy()); err != nil {
			return fmt.Errorf("add namespace %s: %w", ns.Name, err)
		}
	}

	svcIndexer := factory.Core().V1().Services().Informer().GetIndexer()
	for _, svc := range s.Services {
		if err := svcIndexer.Add(svc.DeepCopy()); err != nil {
			return fmt.Errorf("add service %s: %w", svc.Name, err)
		}
	}

	rsIndexer := factory.Apps().V1().ReplicaSets().Informer().GetIndexer()
	for _, rs := range s.ReplicaSets {
		if err := rsIndexer.Add(rs.DeepCopy()); err != nil {
			return fmt.Errorf("add replicaset %s: %w", rs.Name, err)
		}
	}

	for _, n := range s.Nodes {
		r.cache.AddNode(r.logger, n.DeepCopy())
	}
	r.numNodes = len(s.Nodes)
	for _, p := range s.Bound {
		if err := r.addPod(p.DeepCopy()); err != nil {
			return err
		}
	}
	r.pdbs = s.PDBs
	return nil
}

// newPreemption builds the profile's DefaultPreemption plugin with its
// configured args over the same framework handle; its Evaluator and
// SelectVictimsOnNode are used for the dry run.
func (r *Runner) newPreemption(profile *schedulerapi.KubeSchedulerProfile) (*defaultpreemption.DefaultPreemption, error) {
	var args *schedulerapi.DefaultPreemptionArgs
	for _, pc := range profile.PluginConfig {
		if a, ok := pc.Args.(*schedulerapi.DefaultPreemptionArgs); ok {
			args = a
		}
	}
	if args == nil {
		return nil, fmt.Errorf("default profile has no DefaultPreemptionArgs")
	}
	pl, err := defaultpreemption.New(r.ctx, args, r.fw, frameworkFeatures())
	if err != nil {
		return nil, fmt.Errorf("build DefaultPreemption: %w", err)
	}
	return pl, nil
}

// Weights returns score plugin → weight of the profile.
func (r *Runner) Weights() map[string]int64 {
	out := make(map[string]int64, len(r.weights))
	for k, v := range r.weights {
		out[k] = v
	}
	return out
}

func (r *Runner) addPod(p *v1.Pod) error {
	if err := r.cache.AddPod(r.logger, p); err != nil {
		return fmt.Errorf("add pod %s/%s: %w", p.Namespace, p.Name, err)
	}
	r.bound[p.Namespace+"/"+p.Name] = p
	return nil
}

func (r *Runner) removePod(key string) error {
	p := r.bound[key]
	if p == nil {
		return fmt.Errorf("remove pod %s: not bound", key)
	}
	if err := r.cache.RemovePod(r.logger, p); err != nil {
		return fmt.Errorf("remove pod %s: %w", key, err)
	}
	delete(r.bound, key)
	return nil
}

// boundPods returns the bound pods sorted by key (PDB status input).
func (r *Runner) boundPods() []*v1.Pod {
	keys := make([]string, 0, len(r.bound))
	for k := range r.bound {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*v1.Pod, len(keys))
	for i, k := range keys {
		out[i] = r.bound[k]
	}
	return out
}

// currentPDBs returns the budgets with their status: as given in the
// file, or computed from the pods bound now.
func (r *Runner) currentPDBs() []*policyv1.PodDisruptionBudget {
	out := make([]*policyv1.PodDisruptionBudget, 0, len(r.pdbs))
	bound := r.boundPods()
	for _, p := range r.pdbs {
		c := p.DeepCopy()
		if !scenario.StatusGiven(p) {
			c.Status = scenario.PDBStatus(p, bound)
		}
		out = append(out, c)
	}
	return out
}

// noNominations is a PodNominator that tracks nothing: the harness does
// not carry nominations across pods (see docs/conformance.md).
type noNominations struct{}

func (noNominations) AddNominatedPod(klog.Logger, fwk.PodInfo, *fwk.NominatingInfo) {}
func (noNominations) DeleteNominatedPodIfExists(*v1.Pod)                            {}
func (noNominations) UpdateNominatedPod(klog.Logger, *v1.Pod, fwk.PodInfo)          {}
func (noNominations) NominatedPodsForNode(string) []fwk.PodInfo                     { return nil }
