package main

import (
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/spf13/cobra"

	"workshop.local/scripts/internal/board"
	"workshop.local/scripts/internal/classroom"
	"workshop.local/scripts/workspace"
)

// classroomCommands get laptops ready for a workshop (doctor, prepare, kit, kit-install) and
// connect them to the instructor's board (board, join).
func classroomCommands() []*cobra.Command {
	return []*cobra.Command{doctorCommand(), prepareCommand(), kitCommand(), kitInstallCommand(),
		boardCommand(), joinCommand()}
}

// rooted is a command body that needs only the workspace's root.
func rooted(run func(cmd *cobra.Command, root string) (bool, error)) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		root, err := workspace.Root()
		if err != nil {
			return err
		}
		return verdict(run(cmd, root))
	}
}

func doctorCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check this laptop for the workshop: one line per check, a fix per failure; exit 0 when ready",
		Args:  cobra.NoArgs,
		RunE: rooted(func(cmd *cobra.Command, root string) (bool, error) {
			return classroom.Doctor(cmd.Context(), root, clusterRuntime, asJSON)
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON, for tools (make doctor ARGS=--json)")
	return asMake(cmd, "doctor")
}

func prepareCommand() *cobra.Command {
	return asMake(&cobra.Command{
		Use:   "prepare",
		Short: "Do once, with the network, all that make check needs (modules, cluster binaries, lesson builds, kind image)",
		Args:  cobra.NoArgs,
		RunE: rooted(func(cmd *cobra.Command, root string) (bool, error) {
			return classroom.Prepare(cmd.Context(), root, clusterRuntime)
		}),
	}, "prepare")
}

func kitCommand() *cobra.Command {
	var path string
	cmd := &cobra.Command{
		Use:   "kit",
		Short: "Instructor: write the offline kit (modules as a Go proxy, cluster binaries, checksums)",
		Args:  cobra.NoArgs,
		RunE: rooted(func(cmd *cobra.Command, root string) (bool, error) {
			out := path
			if out == "" {
				out = filepath.Join(root, ".cache", "kit", "workshop-kit-"+runtime.GOOS+"-"+runtime.GOARCH+".tar.gz")
			}
			out, err := filepath.Abs(out)
			if err != nil {
				return false, err
			}
			return classroom.MakeKit(cmd.Context(), root, out)
		}),
	}
	stringFlag(cmd, &path, "kit", "KIT", "where to write it (default .cache/kit/workshop-kit-<os>-<arch>.tar.gz)")
	return asMake(cmd, "kit")
}

func kitInstallCommand() *cobra.Command {
	var path string
	cmd := &cobra.Command{
		Use:   "kit-install",
		Short: "Learner: install an offline kit; this workspace then needs no network",
		Args:  cobra.NoArgs,
		RunE: rooted(func(cmd *cobra.Command, root string) (bool, error) {
			if path == "" {
				return false, fmt.Errorf("which kit? make kit-install KIT=path/to/workshop-kit.tar.gz")
			}
			abs, err := filepath.Abs(path)
			if err != nil {
				return false, err
			}
			return classroom.InstallKit(cmd.Context(), root, abs, clusterRuntime)
		}),
	}
	stringFlag(cmd, &path, "kit", "KIT", "the .tar.gz the instructor handed out")
	return asMake(cmd, "kit-install")
}

func boardCommand() *cobra.Command {
	var addr, state string
	var maxLearners int
	cmd := &cobra.Command{
		Use:   "board",
		Short: "Instructor: serve the live board of who is stuck (prints the join code)",
		Args:  cobra.NoArgs,
		RunE: rooted(func(cmd *cobra.Command, root string) (bool, error) {
			if addr == "" {
				addr = "127.0.0.1:8765"
			}
			return classroom.ServeBoard(cmd.Context(), root, addr, state, maxLearners)
		}),
	}
	stringFlag(cmd, &addr, "addr", "ADDR", "where to listen: 0.0.0.0:8765 for the room (default 127.0.0.1:8765)")
	stateFlag(cmd, &state)
	cmd.Flags().IntVar(&maxLearners, "max-learners", 0,
		fmt.Sprintf("how many learners the board takes (default %d, at most %d) (MAX_LEARNERS=)", board.DefaultMaxLearners, board.MaxMaxLearners))
	_ = cmd.Flags().SetAnnotation("max-learners", envAnnotation, []string{"MAX_LEARNERS"})
	cmd.AddCommand(boardRemoveCommand(), boardClearCommand())
	return asMake(cmd, "classroom")
}

func stateFlag(cmd *cobra.Command, state *string) {
	stringFlag(cmd, state, "state", "STATE", "the board's database (default .classroom/board.db), kept across restarts")
}

func boardRemoveCommand() *cobra.Command {
	var name, state string
	cmd := &cobra.Command{
		Use:   "remove [NAME]",
		Short: "Instructor: take a learner off the running board; the name is free again",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := workspace.Root()
			if err != nil {
				return err
			}
			if len(args) == 1 {
				name = args[0]
			}
			return verdict(classroom.RemoveLearner(cmd.Context(), root, state, name))
		},
	}
	stringFlag(cmd, &name, "name", "NAME", "a name on the board: yours for make join, the learner's to take off for make board-remove")
	stateFlag(cmd, &state)
	return asMake(cmd, "board-remove")
}

func boardClearCommand() *cobra.Command {
	var state string
	var newCode bool
	cmd := &cobra.Command{
		Use:   "clear",
		Short: "Instructor: take every learner off the running board (NEW_CODE=1: and change the join code)",
		Args:  cobra.NoArgs,
		RunE: rooted(func(cmd *cobra.Command, root string) (bool, error) {
			return classroom.ClearBoard(cmd.Context(), root, state, newCode)
		}),
	}
	stateFlag(cmd, &state)
	boolFlag(cmd, &newCode, "new-code", "NEW_CODE", "also give the board a new join code (learners need it to join again)")
	return asMake(cmd, "board-clear")
}

func joinCommand() *cobra.Command {
	var board, code, name string
	cmd := &cobra.Command{
		Use:   "join",
		Short: "Learner: report every make check and make watch to the instructor's board",
		Args:  cobra.NoArgs,
		RunE: rooted(func(cmd *cobra.Command, root string) (bool, error) {
			if board == "" || code == "" {
				return false, fmt.Errorf("make join BOARD=http://host:port CODE=<the code the board shows> [NAME=your name]")
			}
			return classroom.JoinBoard(cmd.Context(), root, board, code, name)
		}),
	}
	stringFlag(cmd, &board, "board", "BOARD", "the board's address, http://host:port")
	stringFlag(cmd, &code, "code", "CODE", "the join code the board shows")
	stringFlag(cmd, &name, "name", "NAME", "your name on the board (default $LEARNER, else user@host)")
	return asMake(cmd, "join")
}
