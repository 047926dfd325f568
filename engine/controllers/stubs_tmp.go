package controllers

func (m *Manager) syncJob(s *Job)                 {}
func (m *Manager) syncCronJob(s *CronJob)         {}
