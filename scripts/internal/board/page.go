package board

import (
	"cmp"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strings"
	"time"
)

// column is one lesson's exercise, as seen in any learner's reports: the board needs no copy of
// the lessons, and an exercise nobody has checked yet has nothing to show.
type column struct {
	Lesson string
	N      int
}

type cell struct {
	State string // "passed", "failing", "not-started"
	Title string
}

type row struct {
	Name  string
	Since string // time since the last progress
	Stuck string // "" or what they are stuck on
	Cells []cell
}

type failureGroup struct {
	Exercise string
	Message  string
	Learners []string
}

// The templates are html/template: every learner name and failure message is escaped.
var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Workshop board</title>
<style>body{font-family:sans-serif}td,th{padding:2px 6px;text-align:center}.passed{background:#8d8}.failing{background:#e88}.not-started{background:#eee}.stuck{color:#b00;font-weight:bold}</style>
</head><body><h1>Workshop board</h1><p>{{len .Rows}} learners · <a href="/failures">common failures</a> · refreshes every 5 s</p>
<table id="board"><tr><th>learner</th><th>last progress</th>{{range .Columns}}<th>{{.Lesson}} #{{.N}}</th>{{end}}<th>stuck</th></tr>
{{range .Rows}}<tr class="learner"><td class="name">{{.Name}}</td><td>{{.Since}}</td>{{range .Cells}}<td class="{{.State}}" title="{{.Title}}">{{.State}}</td>{{end}}<td class="stuck">{{.Stuck}}</td></tr>
{{end}}</table></body></html>
`))

var failuresTemplate = template.Must(template.New("failures").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Common failures</title></head>
<body><h1>Current failures, most common first</h1><p><a href="/">the board</a></p>
<table id="failures"><tr><th>exercise</th><th>learners</th><th>first failure</th><th>who</th></tr>
{{range .}}<tr><td>{{.Exercise}}</td><td>{{len .Learners}}</td><td class="message">{{.Message}}</td><td>{{range $i, $n := .Learners}}{{if $i}}, {{end}}{{$n}}{{end}}</td></tr>
{{end}}</table></body></html>
`))

func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	cols, rows := s.table(s.now())
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pageTemplate.Execute(w, struct {
		Columns []column
		Rows    []row
	}{cols, rows})
}

func (s *Server) failures(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	groups := s.failureGroups()
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = failuresTemplate.Execute(w, groups)
}

func (s *Server) learners() []*Learner {
	ls := make([]*Learner, 0, len(s.st.Learners))
	for _, l := range s.st.Learners {
		ls = append(ls, l)
	}
	slices.SortFunc(ls, func(a, b *Learner) int { return cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return ls
}

func (s *Server) table(now time.Time) ([]column, []row) {
	seen := map[column]bool{}
	for _, l := range s.st.Learners {
		for lesson, exs := range l.Lessons {
			for n := range exs {
				seen[column{lesson, n}] = true
			}
		}
	}
	cols := make([]column, 0, len(seen))
	for c := range seen {
		cols = append(cols, c)
	}
	slices.SortFunc(cols, func(a, b column) int { return cmp.Or(cmp.Compare(a.Lesson, b.Lesson), cmp.Compare(a.N, b.N)) })
	var rows []row
	for _, l := range s.learners() {
		r := row{Name: l.Name, Since: ago(now.Sub(l.LastProgress))}
		for _, c := range cols {
			e, ok := l.Lessons[c.Lesson][c.N]
			switch {
			case !ok || e.Specs == 0:
				r.Cells = append(r.Cells, cell{State: "not-started"})
			case e.Passed:
				r.Cells = append(r.Cells, cell{State: "passed", Title: fmt.Sprintf("%d of %d specs", e.SpecsPassed, e.Specs)})
			default:
				r.Cells = append(r.Cells, cell{State: "failing", Title: e.FirstFailure})
				if !e.FailingSince.IsZero() && now.Sub(e.FailingSince) >= StuckAfter {
					r.Stuck = fmt.Sprintf("%s #%d for %s", c.Lesson, c.N, ago(now.Sub(e.FailingSince)))
				}
			}
		}
		rows = append(rows, r)
	}
	return cols, rows
}

// failureGroups groups the learners currently failing each exercise by their first failure's
// message, so the instructor can address the room about the most common one.
func (s *Server) failureGroups() []failureGroup {
	byKey := map[[2]string]*failureGroup{}
	for _, l := range s.learners() {
		for lesson, exs := range l.Lessons {
			for n, e := range exs {
				if e.Passed || e.Specs == 0 {
					continue
				}
				ex := fmt.Sprintf("%s #%d", lesson, n)
				key := [2]string{ex, e.FirstFailure}
				if byKey[key] == nil {
					byKey[key] = &failureGroup{Exercise: ex, Message: e.FirstFailure}
				}
				byKey[key].Learners = append(byKey[key].Learners, l.Name)
			}
		}
	}
	groups := make([]failureGroup, 0, len(byKey))
	for _, g := range byKey {
		groups = append(groups, *g)
	}
	slices.SortFunc(groups, func(a, b failureGroup) int {
		return cmp.Or(cmp.Compare(len(b.Learners), len(a.Learners)), cmp.Compare(a.Exercise, b.Exercise), cmp.Compare(a.Message, b.Message))
	})
	return groups
}

func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	default:
		return fmt.Sprintf("%.1f h ago", d.Hours())
	}
}
