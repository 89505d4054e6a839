// Command workshop is the workspace's one tool: the learner's loop, the cluster, the classroom
// and the maintainers' proofs, as one command tree. The Makefile's targets are thin aliases of
// its commands (make check is `workshop check`), so learners keep typing make; `make help` is
// this tree's own listing (workshop make-help).
//
// Every value comes in as a flag, or else from the environment variable make sets (make check
// LESSON=01 EXERCISE=2 runs `workshop check` with LESSON and EXERCISE in its environment).
//
// Exit status: 0 done, 1 a negative verdict (a failing check, a laptop not ready, a cluster not
// running), 2 the command could not do its job (bad input, no cluster, a build that failed):
// scripts and make can tell a verdict from a breakdown.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	// Ctrl-C cancels a build, a run or a wait cleanly: partial binaries are removed, data kept.
	// So does SIGHUP, which a closed terminal sends: the programs a check started end with it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	// A closed stdout (`make cluster | head`) must not kill a cluster start halfway: ignore
	// SIGPIPE so writes just fail while the cluster comes up.
	signal.Ignore(syscall.SIGPIPE)
	err := newRoot().ExecuteContext(ctx)
	stop()
	os.Exit(exitCode(err))
}

// errVerdict is a command's "no" (a check that fails, a doctor that finds the laptop not
// ready): what it printed says why, so nothing more is printed and the exit status is 1.
var errVerdict = errors.New("negative verdict")

// verdict turns a command's (ok, err) into the error cobra returns.
func verdict(ok bool, err error) error {
	if err == nil && !ok {
		return errVerdict
	}
	return err
}

func exitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errVerdict):
		return 1
	}
	fmt.Fprintln(os.Stderr, "workshop: "+err.Error())
	return 2
}

// The groups `workshop --help` and `make help` list the commands in.
const (
	groupLearn     = "learn"
	groupCluster   = "cluster"
	groupClassroom = "classroom"
	groupMaintain  = "maintain"
)

func newRoot() *cobra.Command {
	cobra.EnableCommandSorting = false // the order below is the order a learner meets them
	root := &cobra.Command{
		Use:   "workshop",
		Short: "Learn Kubernetes controller programming against a real cluster",
		Long: "workshop is the one tool of the Kubernetes controllers workshop: the learner's loop, the\n" +
			"workshop cluster, the classroom and the maintainers' proofs. Learners usually run it through\n" +
			"make (make check LESSON=01 is `workshop check`); `make help` lists the make targets.",
		SilenceUsage:  true, // a failing check is not a usage mistake
		SilenceErrors: true, // main prints the error once, as "workshop: ..."
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := applyEnvDefaults(cmd); err != nil {
				return err
			}
			return validFlags()
		},
	}
	bindCluster(root)
	root.AddGroup(
		&cobra.Group{ID: groupLearn, Title: "Learn (the learner's loop):"},
		&cobra.Group{ID: groupCluster, Title: "Cluster (the workshop cluster):"},
		&cobra.Group{ID: groupClassroom, Title: "Classroom (before and during a workshop):"},
		&cobra.Group{ID: groupMaintain, Title: "Maintain (the workshop's own proofs):"},
	)
	add := func(group string, cmds ...*cobra.Command) {
		for _, c := range cmds {
			c.GroupID = group
			root.AddCommand(c)
		}
	}
	add(groupLearn, learnCommands()...)
	add(groupCluster, clusterCommand())
	add(groupClassroom, classroomCommands()...)
	add(groupMaintain, maintainCommands()...)
	root.AddCommand(makeHelpCommand(root))
	root.SetHelpCommandGroupID(groupMaintain)
	root.SetCompletionCommandGroupID(groupMaintain)
	return root
}
