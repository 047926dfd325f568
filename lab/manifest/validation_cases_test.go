package manifest

// validationCases pins the messages of the API validation rules the loader
// enforces (pkg/apis/core/validation, apps, batch, policy, scheduling).
var validationCases = []struct {
	name  string
	input string
	want  []string
}{
	// metadata
	{"name required", "apiVersion: v1\nkind: Pod\nmetadata: {labels: {a: b}}\nspec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:3:11: Pod \"\" is invalid: metadata.name: Required value: name or generateName is required",
	}},
	{"name syntax", "apiVersion: v1\nkind: Pod\nmetadata: {name: Web_1}\nspec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:3:18: Pod \"Web_1\" is invalid: metadata.name: Invalid value: \"Web_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
	}},
	{"namespace syntax", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: Team.A}\nspec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:3:32: Pod \"p\" is invalid: metadata.namespace: Invalid value: \"Team.A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
	}},
	{"namespace name is a DNS label", "apiVersion: v1\nkind: Namespace\nmetadata: {name: team.a}\n", []string{
		"t.yaml:3:18: Namespace \"team.a\" is invalid: metadata.name: Invalid value: \"team.a\": must not contain dots",
	}},
	{"label key syntax", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {\"a/b/c\": x}}\nspec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:3:30: Pod \"p\" is invalid: metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
	}},
	{"label key prefix", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {\"Example.com/x\": x}}\nspec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:3:30: Pod \"p\" is invalid: metadata.labels: Invalid value: \"Example.com/x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
	}},
	{"label value syntax", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: -x-}}\nspec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:3:30: Pod \"p\" is invalid: metadata.labels: Invalid value: \"-x-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
	}},
	// containers
	{"containers required", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {nodeName: node1}\n", []string{
		"t.yaml:4:7: Pod \"p\" is invalid: spec.containers: Required value (a pod needs at least one container)",
	}},
	{"container name and image required", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{command: [sh]}]}\n", []string{
		"t.yaml:4:21: Pod \"p\" is invalid: spec.containers[0].name: Required value",
		"t.yaml:4:21: Pod \"p\" is invalid: spec.containers[0].image: Required value",
	}},
	{"duplicate container name", pod("  initContainers: [{name: c, image: i}]\n"), []string{
		"t.yaml:6:27: Pod \"p\" is invalid: spec.initContainers[0].name: Duplicate value: \"c\"",
	}},
	{"requests above limits", pod("  resources: {requests: {cpu: \"2\", memory: 1Gi}, limits: {cpu: 1500m, memory: 512Mi}}\n"), []string{
		"t.yaml:6:31: Pod \"p\" is invalid: spec.resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1500m",
		"t.yaml:6:44: Pod \"p\" is invalid: spec.resources.requests: Invalid value: \"1Gi\": must be less than or equal to memory limit of 512Mi",
	}},
	{"negative quantity", pod("  overhead: {memory: -1Mi}\n"), []string{
		"t.yaml:6:22: Pod \"p\" is invalid: spec.overhead.limits[memory]: Invalid value: \"-1Mi\": must be greater than or equal to 0",
	}},
	{"preStop sleep longer than grace", pod("  terminationGracePeriodSeconds: 10\n  initContainers:\n  - name: s\n    image: i\n    restartPolicy: Always\n    lifecycle: {preStop: {sleep: {seconds: 11}}}\n"), []string{
		"t.yaml:11:44: Pod \"p\" is invalid: spec.initContainers[0].lifecycle.preStop.sleep: Invalid value: 11: must be non-negative and less than terminationGracePeriodSeconds (10) (raise terminationGracePeriodSeconds or shorten the sleep)",
	}},
	{"preStop sleep longer than default grace", pod("  initContainers:\n  - name: s\n    image: i\n    restartPolicy: Always\n    lifecycle: {preStop: {sleep: {seconds: 31}}}\n"), []string{
		"t.yaml:10:44: Pod \"p\" is invalid: spec.initContainers[0].lifecycle.preStop.sleep: Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30) (raise terminationGracePeriodSeconds or shorten the sleep)",
	}},
	{"init container hooks and probes", pod("  initContainers: [{name: s, image: i, lifecycle: {preStop: {sleep: {seconds: 1}}}, readinessProbe: {periodSeconds: 1}}]\n"), []string{
		"t.yaml:6:51: Pod \"p\" is invalid: spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always (only sidecars, init containers with restartPolicy: Always, take lifecycle hooks and probes)",
		"t.yaml:6:101: Pod \"p\" is invalid: spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always (only sidecars, init containers with restartPolicy: Always, take lifecycle hooks and probes)",
	}},
	{"handler types", pod("  initContainers:\n  - name: s\n    image: i\n    restartPolicy: Always\n    readinessProbe: {exec: {command: [a]}, httpGet: {port: 80}, grpc: {port: 9}}\n    lifecycle: {postStart: {}, preStop: {sleep: {seconds: 1}, exec: {command: [b]}}}\n"), []string{
		"t.yaml:10:53: Pod \"p\" is invalid: spec.initContainers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 handler type",
		"t.yaml:10:71: Pod \"p\" is invalid: spec.initContainers[0].readinessProbe.grpc: Forbidden: may not specify more than 1 handler type",
		"t.yaml:11:28: Pod \"p\" is invalid: spec.initContainers[0].lifecycle.postStart: Required value: must specify a handler type (e.g. httpGet: {path: /healthz, port: 8080})",
		"t.yaml:11:49: Pod \"p\" is invalid: spec.initContainers[0].lifecycle.preStop.sleep: Forbidden: may not specify more than 1 handler type",
	}},
	{"probe grace", pod("  initContainers: [{name: s, image: i, restartPolicy: Always, livenessProbe: {terminationGracePeriodSeconds: 0}}]\n"), []string{
		"t.yaml:6:78: Pod \"p\" is invalid: spec.initContainers[0].livenessProbe: Required value: must specify a handler type (e.g. httpGet: {path: /healthz, port: 8080})",
		"t.yaml:6:110: Pod \"p\" is invalid: spec.initContainers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0",
	}},
	{"ports", pod("  initContainers: [{name: s, image: i, ports: [{containerPort: 0}, {containerPort: 70000, hostPort: -1, protocol: ICMP}]}]\n"), []string{
		"t.yaml:6:64: Pod \"p\" is invalid: spec.initContainers[0].ports[0].containerPort: Required value",
		"t.yaml:6:84: Pod \"p\" is invalid: spec.initContainers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
		"t.yaml:6:101: Pod \"p\" is invalid: spec.initContainers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive",
		"t.yaml:6:115: Pod \"p\" is invalid: spec.initContainers[0].ports[1].protocol: Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
	}},
	{"restartPolicy", pod("  restartPolicy: Sometimes\n  initContainers: [{name: s, image: i, restartPolicy: Forever}]\n"), []string{
		"t.yaml:7:55: Pod \"p\" is invalid: spec.initContainers[0].restartPolicy: Unsupported value: \"Forever\": supported values: \"Always\", \"Never\", \"OnFailure\"",
		"t.yaml:6:18: Pod \"p\" is invalid: spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
	}},
	{"activeDeadlineSeconds", pod("  activeDeadlineSeconds: 0\n"), []string{
		"t.yaml:6:26: Pod \"p\" is invalid: spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive",
	}},
	{"preemptionPolicy", pod("  preemptionPolicy: Always\n"), []string{
		"t.yaml:6:21: Pod \"p\" is invalid: spec.preemptionPolicy: Unsupported value: \"Always\": supported values: \"PreemptLowerPriority\", \"Never\"",
	}},
	{"scheduling gates", pod("  schedulingGates: [{name: a}, {name: a}, {name: \"b c\"}]\n"), []string{
		"t.yaml:6:32: Pod \"p\" is invalid: spec.schedulingGates[1]: Duplicate value: \"a\"",
		"t.yaml:6:43: Pod \"p\" is invalid: spec.schedulingGates[2]: Invalid value: \"b c\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
	}},
	{"nodeName with scheduling gates", pod("  nodeName: n1\n  schedulingGates: [{name: a}]\n"), []string{
		"t.yaml:6:13: Pod \"p\" is invalid: spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared",
	}},
	{"nodeSelector labels", pod("  nodeSelector: {\"a b\": x}\n"), []string{
		"t.yaml:6:18: Pod \"p\" is invalid: spec.nodeSelector: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
	}},
	// tolerations and taints
	{"toleration empty key needs Exists", pod("  tolerations: [{operator: Equal, value: x}]\n"), []string{
		"t.yaml:6:28: Pod \"p\" is invalid: spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
	}},
	{"toleration Exists with value", pod("  tolerations: [{key: a, operator: Exists, value: b}]\n"), []string{
		"t.yaml:6:36: Pod \"p\" is invalid: spec.tolerations[0].operator: Invalid value: \"b\": value must be empty when `operator` is 'Exists'",
	}},
	{"toleration operator", pod("  tolerations: [{key: a, operator: Gt, value: \"1\"}]\n"), []string{
		"t.yaml:6:36: Pod \"p\" is invalid: spec.tolerations[0].operator: Unsupported value: \"Gt\": supported values: \"Equal\", \"Exists\", \"Lt\", \"Gt\"",
	}},
	{"toleration effect", pod("  tolerations: [{key: a, operator: Exists, effect: NoExec}]\n"), []string{
		"t.yaml:6:52: Pod \"p\" is invalid: spec.tolerations[0].effect: Unsupported value: \"NoExec\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
	}},
	{"tolerationSeconds needs NoExecute", pod("  tolerations: [{key: a, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}]\n"), []string{
		"t.yaml:6:52: Pod \"p\" is invalid: spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
	}},
	{"toleration value syntax", pod("  tolerations: [{key: a, value: \"x y\"}]\n"), []string{
		"t.yaml:6:17: Pod \"p\" is invalid: spec.tolerations[0].operator: Invalid value: \"x y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
	}},
	{"taint effect required", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {taints: [{key: a}]}\n", []string{
		"t.yaml:4:17: Node \"n1\" is invalid: metadata.taints[0].effect: Required value",
	}},
	{"taint effect and key", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {taints: [{key: \"a b\", value: \"-\", effect: Evict}]}\n", []string{
		"t.yaml:4:23: Node \"n1\" is invalid: metadata.taints[0].key: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
		"t.yaml:4:37: Node \"n1\" is invalid: metadata.taints[0].value: Invalid value: \"-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
		"t.yaml:4:50: Node \"n1\" is invalid: metadata.taints[0].effect: Unsupported value: \"Evict\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
	}},
	{"duplicate taint", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {taints: [{key: a, effect: NoSchedule}, {key: a, value: x, effect: NoSchedule}]}\n", []string{
		"t.yaml:4:47: Node \"n1\" is invalid: metadata.taints[1]: Duplicate value: {\"Key\":\"a\",\"Value\":\"x\",\"Effect\":\"NoSchedule\",\"TimeAdded\":null}: taints must be unique by key and effect pair",
	}},
	// topology spread constraints
	{"maxSkew", pod("  topologySpreadConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]\n"), []string{
		"t.yaml:6:41: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
	}},
	{"topologyKey required", pod("  topologySpreadConstraints: [{maxSkew: 1, whenUnsatisfiable: DoNotSchedule}]\n"), []string{
		"t.yaml:6:31: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty (e.g. topologyKey: topology.kubernetes.io/zone)",
	}},
	{"whenUnsatisfiable", pod("  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Never}]\n"), []string{
		"t.yaml:6:82: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"Never\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
	}},
	{"duplicate constraint", pod("  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n  - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n"), []string{
		"t.yaml:7:5: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: \"{zone, DoNotSchedule}\" (merge the two constraints or give them different topologyKeys)",
	}},
	{"minDomains", pod("  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, minDomains: 0}]\n"), []string{
		"t.yaml:6:109: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero",
	}},
	{"minDomains needs DoNotSchedule", pod("  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 3}]\n"), []string{
		"t.yaml:6:110: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].minDomains: Invalid value: 3: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
	}},
	{"inclusion policies", pod("  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: honor, nodeTaintsPolicy: Respect}]\n"), []string{
		"t.yaml:6:117: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].nodeAffinityPolicy: Unsupported value: \"honor\": supported values: \"Honor\", \"Ignore\"",
		"t.yaml:6:142: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: \"Respect\": supported values: \"Honor\", \"Ignore\"",
	}},
	{"matchLabelKeys without labelSelector", pod("  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [app]}]\n"), []string{
		"t.yaml:6:113: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
	}},
	{"matchLabelKeys repeating labelSelector", labeledPod("  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [app]}]\n"), []string{
		"t.yaml:6:156: Pod \"p\" is invalid: spec.topologySpreadConstraints[0][0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector (the pod's value for a matchLabelKeys key is added to labelSelector; drop the key from one of them)",
	}},
	{"matchLabelKeys the pod lacks are not merged", pod("  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [app]}]\n  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [app]}]}}\n  priority: x\n"), []string{
		"t.yaml:8:13: Pod \"p\": spec.priority: expected an integer, got \"x\"",
	}},
	{"spread labelSelector", pod("  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: app, operator: Equals, values: [a]}]}}]\n"), []string{
		"t.yaml:6:153: Pod \"p\" is invalid: spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].operator: Invalid value: \"Equals\": not a valid selector operator (use In, NotIn, Exists or DoesNotExist)",
	}},
	// affinity
	{"node selector terms required", pod("  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}\n"), []string{
		"t.yaml:6:97: Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term",
	}},
	{"node selector operators", pod("  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions:\n          - {key: a, operator: In}\n          - {key: b, operator: Exists, values: [x]}\n          - {key: c, operator: Gt, values: [\"1\", \"2\"]}\n          - {key: d, operator: Like, values: [x]}\n          - {key: e, operator: In, values: [\"x y\"]}\n          matchFields:\n          - {key: metadata.labels, operator: Exists}\n"), []string{
		"t.yaml:11:13: Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
		"t.yaml:12:48: Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
		"t.yaml:13:44: Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
		"t.yaml:14:32: Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].operator: Invalid value: \"Like\": not a valid selector operator (use In, NotIn, Exists, DoesNotExist, Gt or Lt)",
		"t.yaml:15:45: Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[4].values[0]: Invalid value: \"x y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
		"t.yaml:17:46: Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].operator: Invalid value: \"Exists\": not a valid selector operator",
		"t.yaml:17:19: Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: Invalid value: \"metadata.labels\": not a valid field selector key",
	}},
	{"preferred weight", pod("  affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 101, preference: {matchExpressions: [{key: a, operator: In, values: [\"x y\"]}]}}]}}\n"), []string{
		"t.yaml:6:88: Pod \"p\" is invalid: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100",
	}},
	{"pod affinity term", labeledPod("  affinity:\n    podAntiAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n      - weight: 0\n        podAffinityTerm:\n          labelSelector: {matchLabels: {app: web}}\n          matchLabelKeys: [app, version]\n          mismatchLabelKeys: [version]\n          namespaces: [Bad_NS]\n"), []string{
		"t.yaml:9:17: Pod \"p\" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100",
		"t.yaml:11:11: Pod \"p\" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
		"t.yaml:12:28: Pod \"p\" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm[0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector (the pod's value for a matchLabelKeys key is added to labelSelector; drop the key from one of them)",
		"t.yaml:12:33: Pod \"p\" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm[1]: Invalid value: \"version\": exists in both matchLabelKeys and labelSelector (the pod's value for a matchLabelKeys key is added to labelSelector; drop the key from one of them)",
		"t.yaml:12:33: Pod \"p\" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys[1]: Invalid value: \"version\": exists in both matchLabelKeys and mismatchLabelKeys",
		"t.yaml:11:11: Pod \"p\" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can not be empty (e.g. topologyKey: kubernetes.io/hostname)",
		"t.yaml:11:11: Pod \"p\" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: \"\": name part must be non-empty",
		"t.yaml:11:11: Pod \"p\" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
	}},
	{"pod affinity topologyKey", pod("  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: web}}}]}}\n"), []string{
		"t.yaml:6:77: Pod \"p\" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty (e.g. topologyKey: kubernetes.io/hostname)",
		"t.yaml:6:77: Pod \"p\" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part must be non-empty",
		"t.yaml:6:77: Pod \"p\" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
	}},
	{"pod affinity mismatchLabelKeys without selector", pod("  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone, mismatchLabelKeys: [app]}]}}\n"), []string{
		"t.yaml:6:116: Pod \"p\" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
	}},
	{"label selector values", pod("  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone, labelSelector: {matchExpressions: [{key: a, operator: In}, {key: b, operator: DoesNotExist, values: [x]}]}}]}}\n"), []string{
		"t.yaml:6:132: Pod \"p\" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
		"t.yaml:6:197: Pod \"p\" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
	}},
	// priority classes and PDBs
	{"priority class value", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\nvalue: 1000000001\n", []string{
		"t.yaml:4:8: PriorityClass \"huge\" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000 (values above 1000000000 are reserved for system-cluster-critical and system-node-critical)",
	}},
	{"priority class system prefix", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-mine}\nvalue: 5\n", []string{
		"t.yaml:3:18: PriorityClass \"system-mine\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
	}},
	{"system class with a wrong value", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-node-critical}\nvalue: 5\n", []string{
		"t.yaml:3:18: PriorityClass \"system-node-critical\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
	}},
	{"priority class preemptionPolicy", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: c}\nvalue: 5\npreemptionPolicy: Sometimes\n", []string{
		"t.yaml:5:19: PriorityClass \"c\" is invalid: preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\"",
	}},
	{"two global defaults", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: a}\nvalue: 5\nglobalDefault: true\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: b}\nvalue: 6\nglobalDefault: true\n", []string{
		"t.yaml:7:1: PriorityClass a is already marked as default. Only one default can exist (set globalDefault: true on one class only)",
	}},
	{"pdb both set", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: 1, maxUnavailable: 1}\n", []string{
		"t.yaml:4:7: PodDisruptionBudget \"b\" is invalid: spec: Invalid value: {\"MinAvailable\":1,\"Selector\":null,\"MaxUnavailable\":1,\"UnhealthyPodEvictionPolicy\":null}: minAvailable and maxUnavailable cannot be both set (a PodDisruptionBudget takes one of them)",
	}},
	{"pdb values", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: 150%, unhealthyPodEvictionPolicy: Never}\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: c}\nspec: {maxUnavailable: -1}\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: d}\nspec: {maxUnavailable: half}\n", []string{
		"t.yaml:4:22: PodDisruptionBudget \"b\" is invalid: spec.minAvailable: Invalid value: \"150%\": must not be greater than 100%",
		"t.yaml:4:56: PodDisruptionBudget \"b\" is invalid: spec.unhealthyPodEvictionPolicy: Unsupported value: \"Never\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"",
		"t.yaml:9:24: PodDisruptionBudget \"c\" is invalid: spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0",
		"t.yaml:14:24: PodDisruptionBudget \"d\" is invalid: spec.maxUnavailable: Invalid value: \"half\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
	}},
	// workloads
	{"rc selector must match template", "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:7:24: ReplicationController \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: selector does not match labels in spec.template (every label of spec.selector must be on spec.template.metadata.labels)",
	}},
	{"pod phase", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\nstatus: {phase: Runing}\n", []string{
		"t.yaml:5:17: Pod \"p\" is invalid: status.phase: Unsupported value: \"Runing\": supported values: \"Pending\", \"Running\", \"Succeeded\", \"Failed\", \"Unknown\" (a pod's phase is Pending, Running, Succeeded, Failed or Unknown)",
	}},
	{"selector does not match template", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:7:24: Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels` (every label of spec.selector must be on spec.template.metadata.labels)",
	}},
	{"selector required", "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec:\n  template:\n    spec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:5:3: ReplicaSet \"web\" is invalid: spec.selector: Required value (e.g. selector: {matchLabels: {app: web}} matching the template's labels)",
		"t.yaml:6:5: ReplicaSet \"web\" is invalid: spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`",
	}},
	{"empty selector", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds}\nspec:\n  selector: {}\n  template:\n    spec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:5:13: DaemonSet \"ds\" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for daemonset",
	}},
	{"deployment strategy", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: -1\n  selector: {matchLabels: {app: web}}\n  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0%}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web2}\nspec:\n  selector: {matchLabels: {app: web}}\n  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}\n  progressDeadlineSeconds: 5\n  minReadySeconds: 10\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: i}]}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web3}\nspec:\n  selector: {matchLabels: {app: web}}\n  strategy: {type: BlueGreen, rollingUpdate: {maxUnavailable: 10x}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:5:13: Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0",
		"t.yaml:10:27: Deployment \"web\" is invalid: spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
		"t.yaml:7:59: Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0",
		"t.yaml:17:45: Deployment \"web2\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
		"t.yaml:18:28: Deployment \"web2\" is invalid: spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds",
		"t.yaml:29:20: Deployment \"web3\" is invalid: spec.strategy: Unsupported value: {\"Type\":\"BlueGreen\",\"RollingUpdate\":{\"MaxUnavailable\":\"10x\",\"MaxSurge\":0}}: supported values: \"Recreate\", \"RollingUpdate\"",
	}},
	{"statefulset", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  selector: {matchLabels: {app: db}}\n  podManagementPolicy: Random\n  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: -1, maxUnavailable: 0}}\n  ordinals: {start: -1}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:6:24: StatefulSet \"db\" is invalid: spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
		"t.yaml:7:68: StatefulSet \"db\" is invalid: spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0",
		"t.yaml:8:21: StatefulSet \"db\" is invalid: spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0",
	}},
	{"daemonset", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds}\nspec:\n  selector: {matchLabels: {app: ds}}\n  updateStrategy: {type: Surge}\n  template:\n    metadata: {labels: {app: ds}}\n    spec: {activeDeadlineSeconds: 5, containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:9:35: DaemonSet \"ds\" is invalid: spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported",
		"t.yaml:6:26: DaemonSet \"ds\" is invalid: spec.updateStrategy: Unsupported value: {\"Type\":\"Surge\",\"RollingUpdate\":null}: supported values: \"RollingUpdate\", \"OnDelete\"",
	}},
	{"job", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: -1\n  completionMode: Sometimes\n  template:\n    spec: {containers: [{name: c, image: i}]}\n", []string{
		"t.yaml:5:16: Job \"j\" is invalid: spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
		"t.yaml:6:19: Job \"j\" is invalid: spec.completionMode: Unsupported value: \"Sometimes\": supported values: \"NonIndexed\", \"Indexed\"",
		"t.yaml:8:11: Job \"j\" is invalid: spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\" (a Job's pods must not restart forever: add restartPolicy: Never or OnFailure)",
	}},
	{"job selector", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  selector: {matchLabels: {app: j}}\n  template:\n    metadata: {labels: {app: j}}\n    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: \"@hourly\"\n  jobTemplate: {spec: {manualSelector: true, template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj2}\nspec:\n  schedule: \"@hourly\"\n  jobTemplate: {spec: {selector: {matchLabels: {a: b}}, template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n", []string{
		"t.yaml:5:13: Job \"j\" is invalid: spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"j\"}}: `selector` not auto-generated (remove spec.selector (the API server generates one) or set manualSelector: true)",
		"t.yaml:15:40: CronJob \"cj\" is invalid: spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: \"nil\", \"false\"",
		"t.yaml:22:34: CronJob \"cj2\" is invalid: spec.jobTemplate.spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\"}}: `selector` will be auto-generated (remove it)",
	}},
	{"cronjob", "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: \"61 * * * *\"\n  concurrencyPolicy: Sometimes\n  jobTemplate:\n    spec:\n      template:\n        spec: {restartPolicy: Always, containers: [{name: c, image: i}]}\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj2}\nspec:\n  schedule: \"TZ=UTC * * * * *\"\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj3}\nspec:\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n", []string{
		"t.yaml:5:13: CronJob \"cj\" is invalid: spec.schedule: Invalid value: \"61 * * * *\": end of range (61) above maximum (59): 61",
		"t.yaml:6:22: CronJob \"cj\" is invalid: spec.concurrencyPolicy: Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \"Replace\"",
		"t.yaml:10:31: CronJob \"cj\" is invalid: spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\" (a Job's pods must not restart forever: add restartPolicy: Never or OnFailure)",
		"t.yaml:16:13: CronJob \"cj2\" is invalid: spec.schedule: Invalid value: \"TZ=UTC * * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
		"t.yaml:23:3: CronJob \"cj3\" is invalid: spec.schedule: Required value (e.g. schedule: \"*/5 * * * *\")",
	}},
}
