package corpustest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/corpus"
)

// JobCountingStore is a Store that also counts its jobs by state.
type JobCountingStore interface {
	corpus.Store
	corpus.JobCounter
}

// RunJobCounter checks CountJobs against jobs created and moved through
// their states. open returns a new, empty store.
func RunJobCounter(t *testing.T, open func(t *testing.T) JobCountingStore) {
	s := open(t)
	ctx := context.Background()
	got, err := s.CountJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("CountJobs of an empty store = %v, want none", got)
	}
	states := []corpus.JobState{corpus.JobQueued, corpus.JobQueued, corpus.JobRunning, corpus.JobSucceeded, corpus.JobFailed}
	for i, st := range states {
		j := job(string(rune('a'+i)), day.Add(time.Duration(i)*time.Second))
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
		if st != corpus.JobQueued {
			j.State = st
			if st.Final() {
				j.FinishedAt = j.UpdatedAt
			}
			if err := s.UpdateJob(ctx, j); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err = s.CountJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[corpus.JobState]int{corpus.JobQueued: 2, corpus.JobRunning: 1, corpus.JobSucceeded: 1, corpus.JobFailed: 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CountJobs (-want +got):\n%s", diff)
	}
}
