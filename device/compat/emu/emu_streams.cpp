/* Streams, events and stream capture of the emulated GPU (emu_api.h). Work queued on
 * streams runs when the host waits for it. Between streams the next operation is
 * picked at random among those whose dependencies are done (event waits, the legacy
 * null stream's ordering against blocking streams), so that a missing event wait shows
 * up as a wrong result rather than passing by luck of the issue order. */
#include <deque>
#include <memory>
#include <vector>

#include "emu_internal.h"

namespace {

struct event_state {
    uint64_t recorded = 0;  /* sequence number of the latest record queued */
    uint64_t completed = 0; /* that of the latest record run */
};

struct node {
    hr_emu::node_kind kind;
    std::function<void()> run;
};

struct op {
    uint64_t seq;
    std::function<void()> run;
    std::shared_ptr<event_state> waits_for; /* hipStreamWaitEvent: ready once this record ran */
    uint64_t record;
};

}  // namespace

struct hr_emu_stream {
    int device;
    bool blocking; /* ordered against the legacy null stream */
    bool is_null;
    std::deque<op> queue;
    std::vector<node>* capture; /* where queued work goes while capturing */
};

struct hr_emu_graph {
    std::vector<node> nodes;
};

struct hr_emu_event {
    std::shared_ptr<event_state> state;
};

namespace hr_emu {
namespace {

struct queues {
    std::vector<hr_emu_stream*> streams; /* the null streams, one per device, first */
    uint64_t next_seq = 1;
};

queues& q()
{
    static queues* all = [] {
        queues* n = new queues;
        for (int d = 0; d < device_count(); ++d) n->streams.push_back(new hr_emu_stream{d, true, true, {}, nullptr});
        return n;
    }();
    return *all;
}

void push(hr_emu_stream* s, std::function<void()> run, std::shared_ptr<event_state> waits = nullptr,
          uint64_t record = 0)
{
    s->queue.push_back(op{q().next_seq++, std::move(run), std::move(waits), record});
}

/* Fails when a capture is in progress on `s`, or that `s` (the null stream) orders
 * against: what `what` does would invalidate the capture on a GPU. */
void check_capture(const hr_emu_stream* s, const char* what)
{
    for (const hr_emu_stream* t : q().streams)
        if (t->capture && (t == s || (s->is_null && t->blocking && t->device == s->device)))
            fail("%s while stream %p is being captured (a GPU runtime invalidates the capture)", what, (const void*)t);
}

bool is_ready(const hr_emu_stream& s, const op& o)
{
    if (o.waits_for && o.waits_for->completed < o.record) return false;
    for (const hr_emu_stream* t : q().streams) {
        if (t == &s || t->device != s.device || t->queue.empty() || t->queue.front().seq > o.seq) continue;
        if ((s.is_null && t->blocking) || (t->is_null && s.blocking)) return false; /* legacy null stream */
    }
    return true;
}

/* Runs one operation whose dependencies are done, picked at random among the streams. */
void step()
{
    std::vector<hr_emu_stream*> candidates;
    bool pending = false;
    for (hr_emu_stream* s : q().streams) {
        if (s->queue.empty()) continue;
        pending = true;
        if (is_ready(*s, s->queue.front())) candidates.push_back(s);
    }
    if (candidates.empty()) {
        if (pending) fail("queued work waits on itself (an event wait that can never complete)");
        return;
    }
    hr_emu_stream* s = candidates[random_below(candidates.size())];
    op o = std::move(s->queue.front());
    s->queue.pop_front();
    o.run();
}

}  // namespace

hr_emu_stream* stream_of(hr_emu_stream_t s)
{
    if (!s) return q().streams[current_device()];
    for (hr_emu_stream* known : q().streams)
        if (known == s) return s;
    fail("stream %p is not a live stream", (void*)s);
}

int stream_device(const hr_emu_stream* s) { return s->device; }

void check_not_capturing(const char* what)
{
    for (const hr_emu_stream* t : q().streams)
        if (t->capture) fail("%s while stream %p is being captured (a GPU runtime invalidates the capture)", what, (const void*)t);
}

void enqueue(hr_emu_stream* s, node_kind kind, std::function<void()> run)
{
    if (s->capture) {
        s->capture->push_back(node{kind, std::move(run)});
        return;
    }
    if (s->is_null) check_capture(s, "work on the legacy null stream");
    push(s, std::move(run));
}

void drain_all()
{
    check_not_capturing("a device-wide wait");
    for (;;) {
        bool pending = false;
        for (const hr_emu_stream* s : q().streams) pending |= !s->queue.empty();
        if (!pending) return;
        step();
    }
}

}  // namespace hr_emu

using namespace hr_emu;

extern "C" {

hr_emu_error hr_emu_stream_create(hr_emu_stream_t* stream, unsigned flags)
{
    hr_emu_stream* s = new hr_emu_stream{current_device(), !(flags & HR_EMU_STREAM_NON_BLOCKING), false, {}, nullptr};
    q().streams.push_back(s);
    *stream = s;
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_stream_destroy(hr_emu_stream_t stream)
{
    if (!stream) return set_error(HR_EMU_INVALID_HANDLE);
    hr_emu_stream* s = stream_of(stream);
    check_capture(s, "hipStreamDestroy");
    while (!s->queue.empty()) step(); /* its queued work still runs */
    std::vector<hr_emu_stream*>& all = q().streams;
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i] == s) all.erase(all.begin() + (long)i);
    delete s;
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_stream_synchronize(hr_emu_stream_t stream)
{
    hr_emu_stream* s = stream_of(stream);
    check_capture(s, "hipStreamSynchronize");
    while (!s->queue.empty()) step();
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_stream_query(hr_emu_stream_t stream)
{
    hr_emu_stream* s = stream_of(stream);
    check_capture(s, "hipStreamQuery");
    if (!s->queue.empty()) step(); /* the emulated GPU progresses while the host polls */
    return s->queue.empty() ? HR_EMU_SUCCESS : HR_EMU_NOT_READY;
}

hr_emu_error hr_emu_stream_wait_event(hr_emu_stream_t stream, hr_emu_event_t event, unsigned flags)
{
    if (!event || flags) return set_error(HR_EMU_INVALID_VALUE);
    const uint64_t record = event->state->recorded;
    hr_emu_stream* s = stream_of(stream);
    if (s->capture) fail("hipStreamWaitEvent on a capturing stream: not emulated");
    if (record) push(s, [] {}, event->state, record); /* never recorded: nothing to wait for */
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_stream_begin_capture(hr_emu_stream_t stream)
{
    hr_emu_stream* s = stream_of(stream);
    if (s->is_null || s->capture) return set_error(HR_EMU_INVALID_VALUE);
    while (!s->queue.empty()) step(); /* what was queued before runs before the graph */
    s->capture = new std::vector<node>;
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_stream_end_capture(hr_emu_stream_t stream, hr_emu_graph_t* graph)
{
    hr_emu_stream* s = stream_of(stream);
    if (!s->capture) return set_error(HR_EMU_INVALID_VALUE);
    *graph = new hr_emu_graph{std::move(*s->capture)};
    delete s->capture;
    s->capture = nullptr;
    return HR_EMU_SUCCESS;
}

int hr_emu_graph_nodes(hr_emu_graph_t graph, int* kernels)
{
    *kernels = 0;
    for (const node& n : graph->nodes) *kernels += n.kind == node_kind::kernel;
    return (int)graph->nodes.size();
}

hr_emu_error hr_emu_graph_launch(hr_emu_graph_t graph, hr_emu_stream_t stream)
{
    hr_emu_stream* s = stream_of(stream);
    for (const node& n : graph->nodes) enqueue(s, n.kind, n.run);
    return HR_EMU_SUCCESS;
}

void hr_emu_graph_destroy(hr_emu_graph_t graph) { delete graph; }

hr_emu_error hr_emu_event_create(hr_emu_event_t* event, unsigned flags)
{
    (void)flags;
    *event = new hr_emu_event{std::make_shared<event_state>()};
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_event_destroy(hr_emu_event_t event)
{
    if (!event) return set_error(HR_EMU_INVALID_HANDLE);
    delete event; /* waits already queued keep its state */
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_event_record(hr_emu_event_t event, hr_emu_stream_t stream)
{
    if (!event) return set_error(HR_EMU_INVALID_HANDLE);
    hr_emu_stream* s = stream_of(stream);
    if (s->capture) fail("hipEventRecord on a capturing stream: not emulated");
    if (s->is_null) check_capture(s, "hipEventRecord on the legacy null stream");
    const uint64_t seq = q().next_seq;
    event->state->recorded = seq;
    std::shared_ptr<event_state> state = event->state;
    push(s, [state, seq] { state->completed = state->completed > seq ? state->completed : seq; });
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_event_synchronize(hr_emu_event_t event)
{
    if (!event) return set_error(HR_EMU_INVALID_HANDLE);
    while (event->state->completed < event->state->recorded) step();
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_event_query(hr_emu_event_t event)
{
    if (!event) return set_error(HR_EMU_INVALID_HANDLE);
    if (event->state->completed < event->state->recorded) step();
    return event->state->completed < event->state->recorded ? HR_EMU_NOT_READY : HR_EMU_SUCCESS;
}

}  // extern "C"
