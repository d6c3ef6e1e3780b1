// Package crashtest lets a test kill a process in the middle of its writes
// and then check what survived. The test binary runs itself as the child:
//
//	func TestCrash(t *testing.T) {
//		if path, ok := crashtest.Child("MY_CHILD"); ok {
//			write(path) // calls crashtest.Ack(id) after each write returns
//			return
//		}
//		acked := crashtest.KillAfter(t, "TestCrash", "MY_CHILD", path, 40)
//		// reopen path; every id in acked must be there
//	}
package crashtest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Child reports whether this process is a child started by KillAfter with
// env, and the value it was given.
func Child(env string) (string, bool) {
	v := os.Getenv(env)
	return v, v != ""
}

// Ack tells the parent that the write named id has returned. Stdout is
// unbuffered, so the line is out before the next write starts.
func Ack(id string) { fmt.Println("ack " + id) }

// KillAfter runs the test named test of this binary as a child with
// env=value, waits until it has acknowledged n writes, kills it (SIGKILL,
// so nothing is flushed or closed) and returns the acknowledged IDs in
// order. The child must write without end, or at least n times.
func KillAfter(t *testing.T, test, env, value string, n int) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env+"="+value)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []string
	sc := bufio.NewScanner(out)
	for len(acked) < n && sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "ack "); ok {
			acked = append(acked, id)
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() //nolint:errcheck // killed on purpose
	if len(acked) < n {
		t.Fatalf("child acknowledged only %d writes before it stopped", len(acked))
	}
	return acked
}
