package server

import (
	"context"
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
	"time"

	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/train"
)

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
		j.State, j.Stopped = JobRunning, false
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
		// A job's memory (the paper preset's: gigabytes) is garbage now;
		// give it back to the system rather than keep it for minutes.
		debug.FreeOSMemory()
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
			j.Stopped = true
			if err := m.saveLocked(j); err != nil {
				m.logf("server: job %s: %v", id, err)
			}
		case stageErr != nil:
			m.failLocked(j, stageErr)
		default:
			// Installed under the lock, after the cancel check: the
			// catalog never lists the model of a cancelled job.
			name, err := m.install(staged, j)
			if err != nil {
				_ = os.Remove(staged)
				m.failLocked(j, err)
				break
			}
			j.Model = name
			m.finishLocked(j, JobDone, "")
		}
		m.running, m.cancelRun = "", nil
		m.mu.Unlock()
	}
}

// modelPath is where job id's model is installed, unless that name is
// taken (see install).
func (m *jobs) modelPath(id string) string { return m.modelPathK(id, 1) }

// modelPathK is the k-th name install tries for job id's model:
// job-<id>.safetensors, then job-<id>-<k>.safetensors.
func (m *jobs) modelPathK(id string, k int) string {
	if k == 1 {
		return filepath.Join(m.modelsDir, "job-"+id+".safetensors")
	}
	return filepath.Join(m.modelsDir, "job-"+id+"-"+strconv.Itoa(k)+".safetensors")
}

// maxModelNames bounds the names install tries.
const maxModelNames = 100

// install gives job id's staged model its name in the models directory
// and returns that name (without extension). It never replaces a file:
// when job-<id>.safetensors exists (a file the operator put there), the
// first free job-<id>-<k>.safetensors (k = 2, 3, ...) is taken, the job's
// record names it (Model) and the log says why.
//
// The name is saved in the job's record (still running) before the model
// takes it, so that a server killed between the two finds the model its
// job installed and does not install it again under another name.
func (m *jobs) install(staged string, j *Job) (string, error) {
	id := j.ID
	for k := 1; k <= maxModelNames; k++ {
		p := m.modelPathK(id, k)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		j.Model = modelName(p)
		if err := m.saveLocked(j); err != nil {
			j.Model = ""
			return "", fmt.Errorf("server: installing the model: %w", err)
		}
		err := renameNoReplace(staged, p)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			j.Model = ""
			return "", fmt.Errorf("server: installing the model: %w", err)
		}
		if k > 1 {
			m.logf("server: job %s: %s exists (not replaced): the model is %s", id, filepath.Base(m.modelPath(id)), filepath.Base(p))
		}
		return modelName(p), nil
	}
	j.Model = ""
	return "", fmt.Errorf("server: installing the model: %s and %d other names taken in %s", filepath.Base(m.modelPath(id)), maxModelNames-1, m.modelsDir)
}

// renameNoReplace renames oldpath to newpath unless newpath exists
// (fs.ErrExist): a hard link, which fails on an existing name, then the
// old name removed (best effort: a starting server removes staged
// models). A file system without hard links gets a check, then a rename
// (the server is the only one to write job models).
func renameNoReplace(oldpath, newpath string) error {
	err := os.Link(oldpath, newpath)
	if err == nil {
		_ = os.Remove(oldpath)
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return fs.ErrExist
	}
	if _, serr := os.Lstat(newpath); serr == nil {
		return fs.ErrExist
	} else if !errors.Is(serr, fs.ErrNotExist) {
		return serr
	}
	return os.Rename(oldpath, newpath)
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
	sum, err := train.Run(ctx, o)
	if o.Resume && errors.Is(err, train.ErrBadCheckpoint) {
		// A damaged checkpoint (a disk fault, a kill the file system did
		// not survive): the job's data is whole, so it trains again from
		// the start rather than failing (the client cannot delete the
		// file, and a failed job's data is removed).
		m.logf("server: job %s: %v: training again from the start", id, err)
		if rerr := os.Remove(ck); rerr != nil {
			return nil, errors.Join(err, rerr)
		}
		o.Resume = false
		sum, err = train.Run(ctx, o)
	}
	return sum, err
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
		j.DevF1, j.Aborted = p.DevF1, 0 // an epoch finished: the job can run
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
	// Copied as a stream: a paper model is 155 MB.
	staged := filepath.Join(m.modelsDir, ".job-"+id+stagedExt)
	return staged, atomicfile.Write(staged, func(w io.Writer) error {
		_, err := io.Copy(w, f)
		return err
	})
}
