package board

import (
	"cmp"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The page stays small whatever is posted: at most rowsPerPage learners per page (a default
// class fits on one), a cell's failure text cut to titleRunes and, past titleBudget bytes of
// them, no more texts (the failures view has them); the failures view shows the
// maxGroups most common failures, each with up to namesPerGroup names.
const (
	rowsPerPage   = 60
	titleRunes    = 80
	titleBudget   = 64 << 10
	maxGroups     = 30
	namesPerGroup = 12
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
	// OtherSpecs marks a learner whose checks ran with specs that are not the instructor's.
	OtherSpecs bool
}

type failureGroup struct {
	Exercise string
	Message  string
	Learners []string
	Count    int // learners in all; Learners may show fewer
}

// boardPage is what the page template shows: one page of the learners.
type boardPage struct {
	Columns               []column
	Rows                  []row
	Learners, First, Last int
	Prev, Next            int // page numbers, 0 for none
}

// The templates are html/template: every learner name and failure message is escaped.
var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Workshop board</title>
<style>body{font-family:sans-serif}td,th{padding:2px 6px;text-align:center}.passed{background:#8d8}.failing{background:#e88}.not-started{background:#eee}.stuck{color:#b00;font-weight:bold}.other-specs{color:#b60;font-size:smaller}</style>
</head><body><h1>Workshop board</h1><p>{{.Learners}} learners{{if or .Prev .Next}} · showing {{.First}} to {{.Last}}{{if .Prev}} · <a href="/?page={{.Prev}}">previous page</a>{{end}}{{if .Next}} · <a href="/?page={{.Next}}">next page</a>{{end}}{{end}} · <a href="/failures">common failures</a> · refreshes every 5 s</p>
<table id="board"><tr><th>learner</th><th>last progress</th>{{range .Columns}}<th>{{.Lesson}} #{{.N}}</th>{{end}}<th>stuck</th></tr>
{{range .Rows}}<tr class="learner"><td class="name">{{.Name}}{{if .OtherSpecs}} <span class="other-specs" title="this laptop checks with specs that differ from the instructor's workspace: edited specs, or another version of the workshop">(other specs)</span>{{end}}</td><td>{{.Since}}</td>{{range .Cells}}<td class="{{.State}}"{{if .Title}} title="{{.Title}}"{{end}}>{{.State}}</td>{{end}}<td class="stuck">{{.Stuck}}</td></tr>
{{end}}</table></body></html>
`))

var failuresTemplate = template.Must(template.New("failures").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Common failures</title></head>
<body><h1>Current failures, most common first</h1><p><a href="/">the board</a>{{if .More}} · {{.More}} less common failures not shown{{end}}</p>
<table id="failures"><tr><th>exercise</th><th>learners</th><th>first failure</th><th>who</th></tr>
{{range .Groups}}<tr><td>{{.Exercise}}</td><td>{{.Count}}</td><td class="message">{{.Message}}</td><td>{{range $i, $n := .Learners}}{{if $i}}, {{end}}{{$n}}{{end}}{{if gt .Count (len .Learners)}} and {{.Count}} in all{{end}}</td></tr>
{{end}}</table></body></html>
`))

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("page"))
	s.mu.Lock()
	p := s.table(s.now(), max(n, 1))
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pageTemplate.Execute(w, p)
}

func (s *Server) failures(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	groups := s.failureGroups()
	s.mu.Unlock()
	more := max(0, len(groups)-maxGroups)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = failuresTemplate.Execute(w, struct {
		Groups []failureGroup
		More   int
	}{groups[:len(groups)-more], more})
}

func (s *Server) learners() []*Learner {
	ls := make([]*Learner, 0, len(s.st.Learners))
	for _, l := range s.st.Learners {
		ls = append(ls, l)
	}
	slices.SortFunc(ls, func(a, b *Learner) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.Name, b.Name))
	})
	return ls
}

// columns are the exercises anyone has checked, in lesson order.
func (s *Server) columns() []column {
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
	return cols
}

// table is page n of the board (the last page when n is past it).
func (s *Server) table(now time.Time, n int) boardPage {
	all := s.learners()
	pages := max(1, (len(all)+rowsPerPage-1)/rowsPerPage)
	n = min(n, pages)
	first, last := (n-1)*rowsPerPage, min(n*rowsPerPage, len(all))
	p := boardPage{Columns: s.columns(), Learners: len(all), First: first + 1, Last: last}
	if n > 1 {
		p.Prev = n - 1
	}
	if n < pages {
		p.Next = n + 1
	}
	budget := titleBudget
	for _, l := range all[first:last] {
		r := rowOf(l, p.Columns, now, &budget)
		r.OtherSpecs = s.opts.SpecsDigest != "" && l.SpecsDigest != s.opts.SpecsDigest
		p.Rows = append(p.Rows, r)
	}
	return p
}

// rowOf is one learner's row; failure texts are spent from budget (bytes, once escaped).
func rowOf(l *Learner, cols []column, now time.Time, budget *int) row {
	r := row{Name: l.Name, Since: ago(now.Sub(l.LastProgress))}
	for _, c := range cols {
		e, ok := l.Lessons[c.Lesson][c.N]
		switch {
		case !ok || e.Specs == 0:
			r.Cells = append(r.Cells, cell{State: "not-started"})
		case e.Passed:
			r.Cells = append(r.Cells, cell{State: "passed", Title: fmt.Sprintf("%d of %d specs", e.SpecsPassed, e.Specs)})
		default:
			title := truncate(e.FirstFailure, titleRunes)
			if *budget -= len(template.HTMLEscapeString(title)); *budget < 0 {
				title = ""
			}
			r.Cells = append(r.Cells, cell{State: "failing", Title: title})
			if !e.FailingSince.IsZero() && now.Sub(e.FailingSince) >= StuckAfter {
				r.Stuck = fmt.Sprintf("%s #%d for %s", c.Lesson, c.N, ago(now.Sub(e.FailingSince)))
			}
		}
	}
	return r
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
				message := e.FirstFailure
				if e.Mistake != "" {
					// One known mistake is one thing to explain, whatever spec failed first.
					message = s.mistakeText(lesson, e.Mistake)
				}
				key := [2]string{ex, message}
				if byKey[key] == nil {
					byKey[key] = &failureGroup{Exercise: ex, Message: message}
				}
				g := byKey[key]
				if g.Count++; len(g.Learners) < namesPerGroup {
					g.Learners = append(g.Learners, l.Name)
				}
			}
		}
	}
	groups := make([]failureGroup, 0, len(byKey))
	for _, g := range byKey {
		groups = append(groups, *g)
	}
	slices.SortFunc(groups, func(a, b failureGroup) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Exercise, b.Exercise), cmp.Compare(a.Message, b.Message))
	})
	return groups
}

// mistakeText is how the failures view names a known mistake: its sentence, where the
// instructor's workspace has it, and its name (docs/mistakes.md lists it).
func (s *Server) mistakeText(lesson, name string) string {
	if sentence := s.opts.Mistakes[lesson][name]; sentence != "" {
		return "known mistake: " + sentence + " (" + name + ")"
	}
	return "known mistake: " + name
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
