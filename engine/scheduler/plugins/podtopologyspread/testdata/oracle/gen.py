import json, sys
def node(name, labels, taints=None):
    d = {"apiVersion":"v1","kind":"Node","metadata":{"name":name,"labels":labels},
         "status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}}
    if taints: d["spec"]={"taints":taints}
    return d
def pod(name, labels, node=None, ns="default", spec_extra=None, meta_extra=None):
    d = {"apiVersion":"v1","kind":"Pod","metadata":{"name":name,"namespace":ns,"labels":labels},
         "spec":{"containers":[{"name":"c","image":"pause"}]}}
    if node: d["spec"]["nodeName"]=node
    if spec_extra: d["spec"].update(spec_extra)
    if meta_extra: d["metadata"].update(meta_extra)
    return d
def write(fname, objs):
    with open(fname,"w") as f:
        f.write("\n---\n".join(json.dumps(o) for o in objs))
docs_nodes=[node("node1",{"node":"node1","zone":"zoneA"}),node("node2",{"node":"node2","zone":"zoneA"}),
            node("node3",{"node":"node3","zone":"zoneB"}),node("node4",{"node":"node4","zone":"zoneB"})]
docs_pods=[pod("p1",{"foo":"bar"},"node1"),pod("p2",{"foo":"bar"},"node2"),pod("p3",{"foo":"bar"},"node3")]
fb={"matchLabels":{"foo":"bar"}}
def tsc(skew,key,when,sel=fb,**kw):
    c={"maxSkew":skew,"topologyKey":key,"whenUnsatisfiable":when}
    if sel is not None: c["labelSelector"]=sel
    c.update(kw); return c
def mypod(cs, labels={"foo":"bar"}, **extra):
    e={"topologySpreadConstraints":cs}; e.update(extra)
    return pod("mypod",labels,spec_extra=e)
write("01-one-zone.yaml", docs_nodes+docs_pods+[mypod([tsc(1,"zone","DoNotSchedule")])])
write("02-one-node.yaml", docs_nodes+docs_pods+[mypod([tsc(1,"node","DoNotSchedule")])])
write("03-two.yaml", docs_nodes+docs_pods+[mypod([tsc(1,"zone","DoNotSchedule"),tsc(1,"node","DoNotSchedule")])])
write("04-conflict.yaml", [node("node1",{"node":"node1","zone":"zoneA"}),node("node2",{"node":"node2","zone":"zoneA"}),node("node3",{"node":"node3","zone":"zoneB"})]+
      [pod("p1",{"foo":"bar"},"node1"),pod("p2",{"foo":"bar"},"node1"),pod("p3",{"foo":"bar"},"node2"),pod("p4",{"foo":"bar"},"node3"),pod("p5",{"foo":"bar"},"node3")]+
      [mypod([tsc(1,"zone","DoNotSchedule"),tsc(1,"node","DoNotSchedule")])])
aff={"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"NotIn","values":["zoneC"]}]}]}}}}
write("05-affinity.yaml", docs_nodes+[node("node5",{"node":"node5","zone":"zoneC"})]+docs_pods+[mypod([tsc(1,"zone","DoNotSchedule")],**aff)])
write("06-missing-key.yaml", [node("node1",{"node":"node1"}),node("node2",{"node":"node2","zone":"zoneA"}),node("node3",{"node":"node3","zone":"zoneB"}),node("node4",{"node":"node4","zone":"zoneB"}),node("node5",{"node":"node5","zone-typo":"zoneC"})]+docs_pods+[mypod([tsc(1,"zone","DoNotSchedule")])])
write("07-selfmatch0.yaml", docs_nodes+docs_pods+[mypod([tsc(1,"zone","DoNotSchedule")],labels={})])
write("08-mindomains.yaml", docs_nodes+docs_pods+[mypod([tsc(1,"zone","DoNotSchedule",minDomains=3)])])
write("09-anyway-zone.yaml", docs_nodes+docs_pods+[mypod([tsc(1,"zone","ScheduleAnyway")])])
write("10-anyway-node.yaml", docs_nodes+docs_pods+[mypod([tsc(1,"node","ScheduleAnyway")])])
H="kubernetes.io/hostname"; Z="topology.kubernetes.io/zone"
hn=lambda n,z=None: node(n,{H:n, **({Z:z} if z else {})})
# hostname soft + zone soft with namespace and terminating pods
write("11-soft-zone-host.yaml", [hn("a","z1"),hn("b","z1"),hn("c","z2"),hn("d","z2"),hn("e")]+
      [pod("r1",{"app":"web"},"a"),pod("r2",{"app":"web"},"a"),pod("r3",{"app":"web"},"c"),
       pod("o1",{"app":"web"},"b",ns="other"),pod("o2",{"app":"web"},"d",ns="other"),
       pod("t1",{"app":"web"},"d",meta_extra={"deletionTimestamp":"2024-01-01T00:00:00Z","deletionGracePeriodSeconds":30,"finalizers":["x/y"]})]+
      [pod("mypod",{"app":"web"},spec_extra={"topologySpreadConstraints":[tsc(1,Z,"ScheduleAnyway",{"matchLabels":{"app":"web"}}),tsc(2,H,"ScheduleAnyway",{"matchLabels":{"app":"web"}})]})])
# taints policy honor, DoNotSchedule
taint=[{"key":"dedicated","value":"x","effect":"NoSchedule"}]
write("12-taints-honor.yaml", [node("n1",{"zone":"A"},taint),node("n2",{"zone":"B"}),node("n3",{"zone":"B"})]+
      [pod("q1",{"foo":"bar"},"n2"),pod("q2",{"foo":"bar"},"n3")]+
      [mypod([tsc(1,"zone","DoNotSchedule",nodeTaintsPolicy="Honor")],tolerations=[{"key":"other","operator":"Exists"}])])
write("13-taints-ignore.yaml", [node("n1",{"zone":"A"},taint),node("n2",{"zone":"B"}),node("n3",{"zone":"B"})]+
      [pod("q1",{"foo":"bar"},"n2"),pod("q2",{"foo":"bar"},"n3")]+
      [mypod([tsc(1,"zone","DoNotSchedule")],tolerations=[{"key":"other","operator":"Exists"}])])
# matchLabelKeys
write("14-matchlabelkeys.yaml", [node("n1",{"zone":"A"}),node("n2",{"zone":"B"})]+
      [pod("v1a",{"app":"w","pod-template-hash":"v1"},"n1"),pod("v1b",{"app":"w","pod-template-hash":"v1"},"n1"),pod("v2a",{"app":"w","pod-template-hash":"v2"},"n2")]+
      [pod("mypod",{"app":"w","pod-template-hash":"v2"},spec_extra={"topologySpreadConstraints":[tsc(1,"zone","DoNotSchedule",{"matchLabels":{"app":"w"}},matchLabelKeys=["pod-template-hash"])]})])
write("15-affinity-ignore.yaml", docs_nodes+[node("node5",{"node":"node5","zone":"zoneC"})]+docs_pods+[mypod([tsc(1,"zone","DoNotSchedule",nodeAffinityPolicy="Ignore")],**aff)])
# soft with hostname key missing on a node (ignored node) + nodeAffinityPolicy honor via nodeSelector
write("16-soft-ignored.yaml", [hn("a","z1"),hn("b","z1"),node("c",{Z:"z2"}),hn("d","z2")]+
      [pod("r1",{"app":"web"},"a"),pod("r2",{"app":"web"},"c"),pod("r3",{"app":"web"},"d"),pod("r4",{"app":"web"},"d")]+
      [pod("mypod",{"app":"web"},spec_extra={"topologySpreadConstraints":[tsc(1,Z,"ScheduleAnyway",{"matchLabels":{"app":"web"}}),tsc(1,H,"ScheduleAnyway",{"matchLabels":{"app":"web"}})]})])
