package controllers

func (m *Manager) syncStatefulSet(s *StatefulSet) {}
func (m *Manager) syncDaemonSet(s *DaemonSet)     {}
func (m *Manager) syncJob(s *Job)                 {}
func (m *Manager) syncCronJob(s *CronJob)         {}
