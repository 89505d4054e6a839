// Package classroom gets laptops ready for a workshop and keeps them ready offline (make doctor,
// prepare, kit, kit-install), and connects them to the instructor's board (make classroom, join).
package classroom

import (
	"context"
	"fmt"
	"os"

	"workshop.local/scripts/internal/doctor"
)

// Doctor is make doctor: it gathers the facts, prints the checklist (or JSON) and says whether
// the machine is ready. It only reads. wanted is CLUSTER, as make cluster would read it.
func Doctor(ctx context.Context, root, wanted string, asJSON bool) (bool, error) {
	report := doctor.Evaluate(doctor.Gather(ctx, root, wanted))
	if asJSON {
		return report.Ready, report.PrintJSON(os.Stdout)
	}
	fmt.Println("Workshop doctor (nothing is changed; each failure says its fix):")
	report.Print(os.Stdout)
	return report.Ready, nil
}
