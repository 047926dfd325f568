// Package workshop is the lab side of `podlab serve`: the limits a
// participant's session runs under (a lab.Guard), the progress the
// instructor sees for each participant (step, checks passed, time on the
// step, last command, idle/stuck), the room's table sorted as the
// instructor asks, and the record written for the instructor's notes. It
// has no UI and no network: serve/ runs the SSH server and ui/instructor
// draws the table.
package workshop
