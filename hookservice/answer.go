package hookservice

import (
	"context"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/index"
)

// call is what answering one call has gathered: the event, the session's
// lists, the store (nil: none) and the transcript's fold.
type call struct {
	ev    hook.Event
	agent Agent
	sess  hook.Session
	st    Store
	fold  foldResult
	// told are the list events of the call a PostToolUse reports.
	told []tally.Event
	opts hook.Options
	log  *logger
	wait *wait
}

// answer reads the call, the session's lists and the hooks' memory,
// decides, and gives answer the bytes to give the agent; then it commits a
// long fold for the next call. On any failure it answers nothing.
func (s *Service) answer(ctx context.Context, ag Agent, c Call, log *logger, answer func([]byte), w *wait) {
	payload, err := c.Read()
	if err != nil {
		log.printf("reading the call: %v", err)
		return
	}
	ev, err := ag.Spec.Format.Parse(payload)
	if err != nil {
		log.printf("%v", err)
		return
	}
	log.setEvent(ev)
	if ev.AgentID != "" {
		return // a sub-agent's call: the lists are the main agent's
	}
	k := &call{ev: ev, agent: ag, log: log, wait: w}
	k.st = s.openStore(ctx, log)
	if ev.Name == hook.PermissionRequest {
		// Nothing of the transcript is needed: the request is on the
		// board sooner.
		k.opts = s.o.Rules
		k.opts.Now = c.Start
		answer(ag.Spec.Format.Encode(ev, s.ask(k)))
		return
	}
	o := index.Options{Adapters: []tally.Adapter{ag.Adapter}, Detect: s.o.Detect, Now: s.o.Now}
	if k.st != nil {
		o.Store = k.st
		if ag.Spec.SessionEnv != "" {
			// A long fold commits the session's record: with its Tally list.
			o.SessionLists = index.StoreLists{Store: k.st, Agents: []tally.Agent{ag.Adapter.Agent()}, Name: hook.SessionList}
		}
	}
	k.fold, err = foldTranscript(ctx, k.st, o, ag.Adapter, ev)
	if err != nil {
		log.printf("%v", err)
		return
	}
	if k.fold.refused != "" {
		log.printf("the transcript is not read: %s", k.fold.refused)
	}
	k.sess = s.lists(ctx, k)
	k.told = toldEvents(ag, ev, c.Start, log)
	k.opts = s.o.Rules
	k.opts.GuardStop = c.GuardStop
	k.opts.Now = c.Start
	k.opts.OwnReminders = ag.Spec.OwnReminders
	k.opts.ResumeLater = ag.Spec.ResumeLater
	if ev.Name == hook.SessionStart {
		k.opts.Protocol = s.o.Protocol(ev.Cwd)
		k.opts.Plan = s.o.Plan(ev.Cwd)
	}
	answer(ag.Spec.Format.Encode(ev, s.respond(ev)(ctx, k)))
	if k.st != nil && k.fold.fold != nil && k.fold.read >= CommitAfter {
		wctx, cancel := context.WithTimeout(ctx, LockWait)
		defer cancel()
		if err := k.fold.fold.Commit(wctx); err != nil {
			log.printf("saving the fold of %s: %v", ev.TranscriptPath, err)
		}
	}
}

// lists are the session's lists: the agent's own, from its transcript,
// and its Tally list, when the agent tells its MCP servers which session
// they serve.
func (s *Service) lists(ctx context.Context, k *call) hook.Session {
	var sess hook.Session
	if own := k.fold.state.Lists[""]; own != nil && own.Len() > 0 {
		sess.Lists = append(sess.Lists, hook.List{Kind: hook.ListOwn, Items: own.Items()})
	}
	if k.st == nil || k.agent.Spec.SessionEnv == "" {
		return sess
	}
	lctx, cancel := context.WithTimeout(ctx, StoreWait)
	l, err := k.st.TaskList(lctx, hook.SessionList(k.agent.Adapter.Agent(), k.ev.SessionID))
	cancel()
	switch {
	case err == nil:
		sess.Lists = append(sess.Lists, hook.List{Kind: hook.ListTally, Name: l.Name, Items: l.Record().Lists[""]})
	case tally.ErrorCode(err) != tally.CodeNotFound:
		k.log.printf("reading the session's Tally list: %v", err)
	}
	return sess
}

// openStore opens the store, or returns nil (logged) when it cannot, or
// when it does not answer within StoreWait: the call is then answered
// from the transcript alone.
func (s *Service) openStore(ctx context.Context, log *logger) Store {
	if s.o.Store == nil {
		return nil
	}
	type opened struct {
		st  Store
		err error
	}
	octx, cancel := context.WithTimeout(ctx, StoreWait)
	defer cancel()
	done := make(chan opened, 1)
	go func() {
		st, err := s.o.Store(octx)
		done <- opened{st, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			log.printf("no store (%v): answering from the transcript alone", r.err)
			return nil
		}
		return r.st
	case <-octx.Done():
		// The open goes on unwatched; a command's process ends with the
		// answer.
		log.printf("the store did not answer within %v: answering from the transcript alone", StoreWait)
		return nil
	}
}
