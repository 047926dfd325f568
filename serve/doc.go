// Package serve is `podlab serve`: an SSH server (charm.land/wish) that
// gives every participant of a workshop their own lab on the same lesson,
// one Bubble Tea program per SSH session, and the instructor a live view
// of the room (ui/instructor) in the terminal that started it and, for
// instructor keys, over SSH.
//
// Safety: a session runs only the lab's command language — no shell, no
// exec, no subsystems (sftp), no port or agent forwarding, no host files
// (ui.Options.NoFiles, lab.SessionOptions.NoFiles) — under per-session
// limits (workshop.Limits); a panic ends that session only.
package serve
