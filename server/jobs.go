package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/train"
)

// JobState is the state of a training job.
type JobState string

// Job states. Done, failed and cancelled are final.
const (
	JobQueued    JobState = "queued"
	JobRunning   JobState = "running"
	JobDone      JobState = "done"
	JobFailed    JobState = "failed"
	JobCancelled JobState = "cancelled"
)

func (s JobState) final() bool { return s == JobDone || s == JobFailed || s == JobCancelled }

// Job is a training job as GET /api/jobs/{id} shows it (and as its record
// job.json in the jobs directory holds it).
type Job struct {
	ID             string     `json:"id"`
	State          JobState   `json:"state"`
	Preset         string     `json:"preset"`
	Device         string     `json:"device"`
	Format         string     `json:"format"` // of the upload
	TrainSentences int        `json:"train_sentences"`
	DevSentences   int        `json:"dev_sentences"`
	Epoch          int        `json:"epoch"` // current (1-based) epoch
	Epochs         int        `json:"epochs"`
	Step           int        `json:"step"` // batches done in the epoch
	Steps          int        `json:"steps"`
	Loss           float64    `json:"loss"`
	DevF1          float64    `json:"dev_f1"` // of the last finished epoch
	BestDevF1      float64    `json:"best_dev_f1"`
	Created        time.Time  `json:"created"`
	Started        *time.Time `json:"started,omitempty"`
	Finished       *time.Time `json:"finished,omitempty"`
	Error          string     `json:"error,omitempty"`
	// Model is the name of the finished model in /api/models: "job-<id>",
	// or "job-<id>-<k>" when a file had taken that name (see install).
	Model string `json:"model,omitempty"`
	// History has one entry per finished epoch.
	History []EpochStat `json:"history,omitempty"`
	// Resumed counts the restarts of the server the job survived while running.
	Resumed int `json:"resumed,omitempty"`
	// Stopped is set when the server stopped the running job itself (a
	// shutdown: its checkpoint written); Aborted counts the times the
	// server ended while the job ran without stopping it (killed, out of
	// memory) since its last finished epoch. A job aborted MaxAborted
	// times fails instead of being resumed once more: one that brings the
	// server down would otherwise do so at every start.
	Stopped bool `json:"stopped,omitempty"`
	Aborted int  `json:"aborted,omitempty"`
}

// MaxAborted is the number of times the server may end while a job runs,
// without an epoch finishing in between, before the job fails (its data
// kept).
const MaxAborted = 3

// EpochStat is one finished epoch of a job.
type EpochStat struct {
	Epoch     int     `json:"epoch"`
	Loss      float64 `json:"loss"` // mean per-sentence training loss
	DevF1     float64 `json:"dev_f1"`
	BestDevF1 float64 `json:"best_dev_f1"`
}

// jobs is the job queue of one device: one job runs at a time, the others
// wait in FIFO order.
type jobs struct {
	dir, modelsDir, device string
	maxQueue, maxWords     int
	defaults               func(*train.Options)
	logf                   func(string, ...any)
	// afterRun, when set (tests), is called when a job's run has returned,
	// before its end is recorded.
	afterRun func(id string)

	mu         sync.Mutex
	all        map[string]*Job
	queue      []string
	next       int
	running    string
	cancelRun  context.CancelFunc
	userCancel bool
	subs       map[string]map[chan struct{}]bool

	wake chan struct{}
	ctx  context.Context
	stop context.CancelFunc
	done chan struct{}

	unlock    func() // the jobs folder's lock (atomicfile.Lock)
	closeOnce sync.Once
}

// Files of a job directory.
const (
	jobRecord   = "job.json"
	jobTrain    = "train.discbracket"
	jobDev      = "dev.discbracket"
	jobOut      = "model.safetensors"
	jobUploaded = "upload."
	// jobMarker is written first into every job directory the server
	// makes: at start, only a directory with it (or with a job record) is
	// the server's to clean.
	jobMarker = ".discspan-job"
)

// lastIDFile, in the jobs directory, holds the last job id handed out
// when a job was deleted, so that the next server does not hand out the
// id of a deleted job again.
const lastIDFile = ".discspan-last-id"

func newJobs(dir, modelsDir, device string, maxQueue, maxWords int, defaults func(*train.Options), logf func(string, ...any)) (*jobs, error) {
	for _, d := range []string{dir, modelsDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
	}
	// One server per jobs folder: a second one would resume the jobs the
	// first runs, fail them on their locked files and remove their data.
	unlock, err := atomicfile.Lock(filepath.Join(dir, "server"))
	if errors.Is(err, atomicfile.ErrLocked) {
		return nil, fmt.Errorf("server: jobs folder %s is used by another discspan serve (stop it, or give this one another --jobs)", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	m := &jobs{dir: dir, modelsDir: modelsDir, device: device, maxQueue: maxQueue, maxWords: maxWords, defaults: defaults, logf: logf,
		all: map[string]*Job{}, next: 1, subs: map[string]map[chan struct{}]bool{}, wake: make(chan struct{}, 1), done: make(chan struct{}),
		unlock: unlock}
	if err := m.load(); err != nil {
		unlock()
		return nil, err
	}
	m.ctx, m.stop = context.WithCancel(context.Background())
	go m.loop()
	return m, nil
}

// close stops the worker: a running job is interrupted (its checkpoint
// written) and stays "running" on disk, to be resumed by the next server.
func (m *jobs) close() {
	m.closeOnce.Do(func() {
		m.stop()
		<-m.done
		m.unlock()
	})
}

func (m *jobs) jobDir(id string) string { return filepath.Join(m.dir, id) }

// errQueueFull refuses a job while maxQueue jobs wait.
var errQueueFull = errors.New("the job queue is full")

// queueFull reports whether maxQueue jobs wait already.
func (m *jobs) queueFull() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queue) >= m.maxQueue
}

// reserve creates the directory of a new job and returns its id. The job
// exists once add has recorded it; discard removes the directory of one
// that never was. An id whose name exists in the jobs directory is
// skipped: a job never starts in a directory it did not make. The
// directory gets the server's marker first (see load).
func (m *jobs) reserve() (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for {
		if m.next < 1 || m.next == math.MaxInt {
			return "", errors.New("server: no job id left")
		}
		id := strconv.Itoa(m.next)
		m.next++
		err := os.Mkdir(m.jobDir(id), 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("server: %w", err)
		}
		if err := os.WriteFile(filepath.Join(m.jobDir(id), jobMarker), []byte("discspan serve: job "+id+"\n"), 0o644); err != nil {
			_ = os.RemoveAll(m.jobDir(id))
			return "", fmt.Errorf("server: %w", err)
		}
		atomicfile.SyncDir(m.dir) // the job's folder itself survives a crash
		return id, nil
	}
}

func (m *jobs) lastIDPath() string { return filepath.Join(m.dir, lastIDFile) }

// discard removes a reserved job's directory.
func (m *jobs) discard(id string) {
	if err := os.RemoveAll(m.jobDir(id)); err != nil {
		m.logf("server: job %s: %v", id, err)
	}
}

// add records and queues a reserved job whose upload has been converted
// into its directory (errQueueFull when maxQueue jobs wait).
func (m *jobs) add(id string, c converted, preset string, epochs int) (Job, error) {
	j := &Job{ID: id, State: JobQueued, Preset: preset, Device: m.device, Format: c.Format.String(),
		TrainSentences: c.Train, DevSentences: c.Dev, Epochs: epochs, Created: time.Now().UTC()}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.queue) >= m.maxQueue {
		return Job{}, errQueueFull
	}
	if err := m.saveLocked(j); err != nil {
		return Job{}, err
	}
	m.all[id] = j
	m.queue = append(m.queue, id)
	m.notifyLocked(id)
	select {
	case m.wake <- struct{}{}:
	default:
	}
	return *j, nil
}

// get returns a copy of a job.
func (m *jobs) get(id string) (Job, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.all[id]
	if !ok {
		return Job{}, false
	}
	c := *j
	c.History = slices.Clone(j.History)
	return c, true
}

// list returns all jobs by id.
func (m *jobs) list() []Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Job, 0, len(m.all))
	for _, j := range m.all {
		c := *j
		c.History = slices.Clone(j.History)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Job) int {
		x, _ := strconv.Atoi(a.ID)
		y, _ := strconv.Atoi(b.ID)
		return x - y
	})
	return out
}

// cancel cancels a queued or running job; it returns the job and whether it
// exists.
func (m *jobs) cancel(id string) (Job, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.all[id]
	if !ok {
		return Job{}, false
	}
	switch {
	case id == m.running:
		m.userCancel = true
		m.cancelRun()
	case j.State == JobQueued || j.State == JobRunning:
		m.queue = slices.DeleteFunc(m.queue, func(q string) bool { return q == id })
		m.finishLocked(j, JobCancelled, "")
	}
	return *j, true
}

// subscribe returns a channel that receives a value (coalesced) whenever
// the job changes, and a function to unsubscribe.
func (m *jobs) subscribe(id string) (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	m.mu.Lock()
	if m.subs[id] == nil {
		m.subs[id] = map[chan struct{}]bool{}
	}
	m.subs[id][c] = true
	m.mu.Unlock()
	return c, func() {
		m.mu.Lock()
		delete(m.subs[id], c)
		if len(m.subs[id]) == 0 {
			delete(m.subs, id)
		}
		m.mu.Unlock()
	}
}

func (m *jobs) notifyLocked(id string) {
	for c := range m.subs[id] {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

func (m *jobs) saveLocked(j *Job) error {
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(filepath.Join(m.jobDir(j.ID), jobRecord), append(b, '\n'))
}

func (m *jobs) finishLocked(j *Job, s JobState, msg string) {
	now := time.Now().UTC()
	j.State, j.Finished, j.Error = s, &now, msg
	if err := m.saveLocked(j); err != nil {
		m.logf("server: job %s: %v", j.ID, err)
	}
	m.cleanup(j.ID)
	m.notifyLocked(j.ID)
}

// cleanup removes the files a finished job no longer needs: the upload,
// the train/dev split, the checkpoint and the weights (a done job's are
// in the models directory). The record, the training log and the
// server's marker stay.
func (m *jobs) cleanup(id string) {
	d := m.jobDir(id)
	ents, err := os.ReadDir(d)
	if err != nil {
		m.logf("server: job %s: %v", id, err)
		return
	}
	for _, e := range ents {
		if name := e.Name(); name != jobRecord && name != jobOut+".log.jsonl" && name != jobMarker {
			if err := os.RemoveAll(filepath.Join(d, name)); err != nil {
				m.logf("server: job %s: %v", id, err)
			}
		}
	}
}

// remove deletes a finished job: its record and directory, and with
// withModel its model too; the last id handed out is recorded first (see
// lastIDFile).
// It reports whether the job existed and was finished.
func (m *jobs) remove(id string, withModel bool) (existed, finished bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.all[id]
	if !ok {
		return false, false, nil
	}
	if !j.State.final() {
		return true, false, nil
	}
	if withModel && j.Model != "" {
		// The job's own model, by the name its record gives (the server
		// never replaces a file, so that name is the job's).
		err := os.Remove(filepath.Join(m.modelsDir, j.Model+".safetensors"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return true, true, fmt.Errorf("server: job %s: %w", id, err)
		}
	}
	// Recorded before the directory goes: the id is never handed out again.
	if err := atomicfile.WriteBytes(m.lastIDPath(), []byte(strconv.Itoa(m.next-1)+"\n")); err != nil {
		return true, true, fmt.Errorf("server: job %s: %w", id, err)
	}
	if err := os.RemoveAll(m.jobDir(id)); err != nil {
		return true, true, fmt.Errorf("server: job %s: %w", id, err)
	}
	delete(m.all, id)
	m.notifyLocked(id)
	return true, true, nil
}

var errNoJob = errors.New("no such job")
