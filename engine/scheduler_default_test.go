package engine

// The property test runs with the default profile.
func init() { propertyScheduler = ByNameScheduler }
