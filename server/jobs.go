package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
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
	// Model is the name of the finished model in /api/models ("job-<id>").
	Model string `json:"model,omitempty"`
	// History has one entry per finished epoch.
	History []EpochStat `json:"history,omitempty"`
	// Resumed counts the restarts of the server the job survived while running.
	Resumed int `json:"resumed,omitempty"`
}

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
}

// Files of a job directory.
const (
	jobRecord   = "job.json"
	jobTrain    = "train.discbracket"
	jobDev      = "dev.discbracket"
	jobOut      = "model.safetensors"
	jobUploaded = "upload."
)

func newJobs(dir, modelsDir, device string, maxQueue, maxWords int, defaults func(*train.Options), logf func(string, ...any)) (*jobs, error) {
	for _, d := range []string{dir, modelsDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
	}
	m := &jobs{dir: dir, modelsDir: modelsDir, device: device, maxQueue: maxQueue, maxWords: maxWords, defaults: defaults, logf: logf,
		all: map[string]*Job{}, next: 1, subs: map[string]map[chan struct{}]bool{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	if err := m.load(); err != nil {
		return nil, err
	}
	m.ctx, m.stop = context.WithCancel(context.Background())
	go m.loop()
	return m, nil
}

// load reads the job records; queued and running jobs are queued again (by
// id, which is creation order). It removes what a killed server left: the
// temporary files of atomic writes, and the directories of uploads that
// were being received.
func (m *jobs) load() error {
	for _, d := range []string{m.dir, m.modelsDir} {
		if _, err := atomicfile.SweepDir(d); err != nil {
			return fmt.Errorf("server: %w", err)
		}
	}
	// Models staged by a server that stopped before installing them: a
	// job that still needs its model stages it again when it resumes.
	staged, _ := filepath.Glob(filepath.Join(m.modelsDir, ".job-*"+stagedExt))
	for _, p := range staged {
		if err := os.Remove(p); err != nil {
			m.logf("server: %v", err)
		}
	}
	ents, err := os.ReadDir(m.dir)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	var ids []int
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil || !e.IsDir() {
			continue
		}
		if _, err := atomicfile.SweepDir(filepath.Join(m.dir, e.Name())); err != nil {
			m.logf("server: job %s: %v", e.Name(), err)
		}
		b, err := os.ReadFile(filepath.Join(m.dir, e.Name(), jobRecord))
		if errors.Is(err, fs.ErrNotExist) {
			// An upload the server did not finish receiving.
			m.next = max(m.next, n+1)
			if err := os.RemoveAll(filepath.Join(m.dir, e.Name())); err != nil {
				m.logf("server: job %s: %v", e.Name(), err)
			}
			continue
		}
		if err != nil {
			m.logf("server: job %s: %v (skipped)", e.Name(), err)
			continue
		}
		var j Job
		if err := json.Unmarshal(b, &j); err != nil || j.ID != e.Name() {
			m.logf("server: job %s: bad record (skipped)", e.Name())
			continue
		}
		m.all[j.ID] = &j
		m.next = max(m.next, n+1)
		if !j.State.final() {
			if j.State == JobRunning {
				j.Resumed++
			}
			ids = append(ids, n)
		}
	}
	slices.Sort(ids)
	for _, n := range ids {
		m.queue = append(m.queue, strconv.Itoa(n))
	}
	return nil
}

// close stops the worker: a running job is interrupted (its checkpoint
// written) and stays "running" on disk, to be resumed by the next server.
func (m *jobs) close() {
	m.stop()
	<-m.done
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
// that never was.
func (m *jobs) reserve() (string, error) {
	m.mu.Lock()
	id := strconv.Itoa(m.next)
	m.next++
	m.mu.Unlock()
	if err := os.MkdirAll(m.jobDir(id), 0o755); err != nil {
		return "", fmt.Errorf("server: %w", err)
	}
	return id, nil
}

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
// in the models directory). The record and the training log stay.
func (m *jobs) cleanup(id string) {
	d := m.jobDir(id)
	ents, err := os.ReadDir(d)
	if err != nil {
		m.logf("server: job %s: %v", id, err)
		return
	}
	for _, e := range ents {
		if name := e.Name(); name != jobRecord && name != jobOut+".log.jsonl" {
			if err := os.RemoveAll(filepath.Join(d, name)); err != nil {
				m.logf("server: job %s: %v", id, err)
			}
		}
	}
}

// remove deletes a finished job: its record and directory (not its model).
// It reports whether the job existed and was finished.
func (m *jobs) remove(id string) (existed, finished bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.all[id]
	if !ok {
		return false, false, nil
	}
	if !j.State.final() {
		return true, false, nil
	}
	if err := os.RemoveAll(m.jobDir(id)); err != nil {
		return true, true, fmt.Errorf("server: job %s: %w", id, err)
	}
	delete(m.all, id)
	m.notifyLocked(id)
	return true, true, nil
}

// loop runs the queued jobs one at a time until close.
func (m *jobs) loop() {
	defer close(m.done)
	for {
		m.mu.Lock()
		for len(m.queue) == 0 && m.ctx.Err() == nil {
			m.mu.Unlock()
			select {
			case <-m.wake:
			case <-m.ctx.Done():
			}
			m.mu.Lock()
		}
		if m.ctx.Err() != nil {
			m.mu.Unlock()
			return
		}
		id := m.queue[0]
		m.queue = m.queue[1:]
		j := m.all[id]
		j.State = JobRunning
		if j.Started == nil {
			now := time.Now().UTC()
			j.Started = &now
		}
		ctx, cancel := context.WithCancel(m.ctx)
		m.running, m.cancelRun, m.userCancel = id, cancel, false
		if err := m.saveLocked(j); err != nil {
			m.logf("server: job %s: %v", id, err)
		}
		m.notifyLocked(id)
		preset, epochs := j.Preset, j.Epochs
		m.mu.Unlock()

		sum, err := m.run(ctx, id, preset, epochs)
		cancel()
		staged, stageErr := "", error(nil)
		if err == nil && !sum.Interrupted {
			// Copied beside the models under a hidden name, outside the
			// lock; installed (renamed) below only if not cancelled.
			staged, stageErr = m.stage(id)
		}
		if m.afterRun != nil {
			m.afterRun(id)
		}

		m.mu.Lock()
		switch {
		case err != nil:
			m.failLocked(j, err)
		case m.userCancel:
			// Cancelled (and told so) even when the cancel came after the
			// last batch: the model is not installed.
			if staged != "" {
				_ = os.Remove(staged)
			}
			m.finishLocked(j, JobCancelled, "")
		case sum.Interrupted:
			// Shutdown: the job stays running on disk and resumes from its checkpoint.
			if err := m.saveLocked(j); err != nil {
				m.logf("server: job %s: %v", id, err)
			}
		case stageErr != nil:
			m.failLocked(j, stageErr)
		default:
			// Installed under the lock, after the cancel check: the
			// catalog never lists the model of a cancelled job.
			if err := os.Rename(staged, m.modelPath(id)); err != nil {
				_ = os.Remove(staged)
				m.failLocked(j, err)
				break
			}
			j.Model = modelName(m.modelPath(id))
			m.finishLocked(j, JobDone, "")
		}
		m.running, m.cancelRun = "", nil
		m.mu.Unlock()
	}
}

func (m *jobs) modelPath(id string) string {
	return filepath.Join(m.modelsDir, "job-"+id+".safetensors")
}

// run trains a job (the loop installs its model). A panic of the training (a bug,
// or input that slipped past the checks) fails the job instead of the
// server, which would otherwise die again on every restart as it resumes
// the job.
func (m *jobs) run(ctx context.Context, id, preset string, epochs int) (sum *train.Summary, err error) {
	defer func() {
		if p := recover(); p != nil {
			m.logf("server: job %s: panic: %v\n%s", id, p, debug.Stack())
			sum, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	return m.train(ctx, id, preset, epochs)
}

// train runs (or resumes, when its checkpoint exists) a job's training.
func (m *jobs) train(ctx context.Context, id, preset string, epochs int) (*train.Summary, error) {
	d := m.jobDir(id)
	o := train.Options{
		Train: filepath.Join(d, jobTrain), Dev: filepath.Join(d, jobDev), Out: filepath.Join(d, jobOut),
		Preset: preset, Epochs: epochs, Seed: 1, CreatedBy: "discspan serve, job " + id, Device: m.device,
	}
	if m.defaults != nil {
		m.defaults(&o)
	}
	o.MaxWords = m.maxWords
	o.Preset, o.Epochs = preset, epochs
	ck := o.Checkpoint
	if ck == "" {
		ck = o.Out + ".ckpt"
	}
	if _, err := os.Stat(ck); err == nil {
		o.Resume = true
	}
	o.Progress = func(p train.Progress) { m.progress(id, p) }
	return train.Run(ctx, o)
}

func (m *jobs) progress(id string, p train.Progress) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j := m.all[id]
	if p.Phase == train.PhaseEpoch {
		j.History = slices.DeleteFunc(j.History, func(e EpochStat) bool { return e.Epoch >= p.Epoch })
		j.History = append(j.History, EpochStat{Epoch: p.Epoch, Loss: p.Loss, DevF1: p.DevF1, BestDevF1: p.BestDevF1})
	}
	j.Epoch, j.Epochs, j.Step, j.Steps, j.Loss = p.Epoch, p.Epochs, p.Step, p.Steps, p.Loss
	j.BestDevF1 = p.BestDevF1
	if p.Phase == train.PhaseEpoch {
		j.DevF1 = p.DevF1
		if err := m.saveLocked(j); err != nil {
			m.logf("server: job %s: %v", id, err)
		}
	}
	m.notifyLocked(id)
}

// failLocked ends job j failed with err, naming the job's files by their
// names, not the server's paths.
func (m *jobs) failLocked(j *Job, err error) {
	m.finishLocked(j, JobFailed, strings.ReplaceAll(err.Error(), m.jobDir(j.ID)+string(filepath.Separator), ""))
}

// stagedExt ends the hidden name of a model staged for installation.
const stagedExt = ".staged"

// stage copies a finished job's weights into the models directory under a
// hidden name, which the catalog does not list, and returns its path; the
// job loop then renames it to the model's name, or removes it.
func (m *jobs) stage(id string) (string, error) {
	f, err := os.Open(filepath.Join(m.jobDir(id), jobOut))
	if err != nil {
		return "", fmt.Errorf("server: job %s: no weights: %w", id, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return "", err
	}
	staged := filepath.Join(m.modelsDir, ".job-"+id+stagedExt)
	return staged, atomicfile.WriteBytes(staged, b)
}

var errNoJob = errors.New("no such job")
