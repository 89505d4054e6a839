// Command classroom gets laptops ready for a workshop and keeps them ready offline:
//
//	go run ./scripts/classroom doctor [--json]   (make doctor: one line per check, a fix per failure)
//	go run ./scripts/classroom prepare           (make prepare: everything that needs the network, once)
//	go run ./scripts/classroom kit [PATH]        (make kit: one archive for laptops without the network)
//	go run ./scripts/classroom kit-install PATH  (make kit-install KIT=PATH)
//	go run ./scripts/classroom board ADDR [STATE] (make classroom: the instructor's board)
//	go run ./scripts/classroom join URL CODE [NAME] (make join: report to a board)
//
// doctor exits 0 when the machine is ready, 1 when a check fails.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"workshop.local/scripts/internal/doctor"
	"workshop.local/scripts/workspace"
)

const usage = "usage: classroom doctor [--json] | prepare | kit [PATH] | kit-install PATH | board ADDR [STATE] | join URL CODE [NAME]"

func main() { workspace.RunCommand("classroom", run) }

func run(ctx context.Context, args []string) (bool, error) {
	root, err := workspace.Root()
	if err != nil {
		return false, err
	}
	if len(args) == 0 {
		return false, fmt.Errorf(usage)
	}
	switch {
	case args[0] == "doctor" && len(args) <= 2:
		asJSON := len(args) == 2 && args[1] == "--json"
		if len(args) == 2 && !asJSON {
			return false, fmt.Errorf(usage)
		}
		return runDoctor(ctx, root, asJSON)
	case args[0] == "prepare" && len(args) == 1:
		return prepare(ctx, root)
	case args[0] == "kit" && len(args) <= 2:
		path := filepath.Join(root, ".cache", "kit", "workshop-kit-"+runtime.GOOS+"-"+runtime.GOARCH+".tar.gz")
		if len(args) == 2 && args[1] != "" {
			path = args[1]
		}
		return makeKit(ctx, root, path)
	case args[0] == "kit-install" && len(args) == 2 && args[1] != "":
		return installKit(ctx, root, args[1])
	case args[0] == "board" && len(args) >= 2 && len(args) <= 3:
		return serveBoard(ctx, root, args[1], arg(args, 2))
	case args[0] == "join" && len(args) >= 3 && len(args) <= 4:
		return joinBoard(ctx, root, args[1], args[2], arg(args, 3))
	default:
		return false, fmt.Errorf(usage)
	}
}

// runDoctor gathers the facts, prints the checklist (or JSON) and says whether the machine is ready.
func runDoctor(ctx context.Context, root string, asJSON bool) (bool, error) {
	report := doctor.Evaluate(doctor.Gather(ctx, root))
	if asJSON {
		return report.Ready, report.PrintJSON(os.Stdout)
	}
	fmt.Println("Workshop doctor (nothing is changed; each failure says its fix):")
	report.Print(os.Stdout)
	return report.Ready, nil
}

func arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}
