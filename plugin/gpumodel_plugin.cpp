// gpumodel_plugin — an Oclgrind plugin that groups a kernel's memory accesses into warps and writes per-instruction GPU figures for src/gpumodel.c.
//
// Oclgrind runs each work-item alone until a barrier or its end, so a warp's
// request is rebuilt from the accesses that share (instruction, warp = local
// linear id / 32, barriers passed, how many times this work-item has executed
// the instruction since the last barrier). At each barrier and at the end of a
// work-group the rebuilt requests are measured: 32-byte sectors (global and
// constant), bank-conflict degree (local, 32 banks of 4 bytes), distinct
// addresses and same-address contention of atomics. The plugin also notes
// reads of local memory that nothing wrote, and collects Oclgrind's own error
// messages. At the end of each kernel it appends a text block to the file
// named by $CLTUTOR_GM_OUT (format in docs/gpu-model.md).
#include <oclgrind/Context.h>
#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <llvm/IR/Argument.h>
#include <llvm/IR/DebugLoc.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

using namespace oclgrind;

namespace {

const unsigned WARP = 32;
const size_t MAX_PER_EPOCH = 1u << 16;  // executions per work-item and instruction between barriers that are kept
const size_t MAX_MESSAGES = 200;        // distinct Oclgrind messages kept per kernel
const size_t MAX_INTERVALS = 64;        // barrier intervals of one work-group sampled per instruction

enum Kind { K_LOAD = 0, K_STORE = 1, K_ATOMIC = 2 };
enum Space { S_GLOBAL = 0, S_CONSTANT = 1, S_LOCAL = 2 };

// A lane's access packed in 64 bits: size (1..255) in the top byte, address
// below; 0 marks a lane that did not take part.
inline uint64_t pack(size_t addr, size_t size) {
  if (size > 255) size = 255;
  if (size == 0) size = 1;
  return (uint64_t(size) << 56) | (uint64_t(addr) & ((uint64_t(1) << 56) - 1));
}
inline uint64_t addr_of(uint64_t p) { return p & ((uint64_t(1) << 56) - 1); }
inline unsigned size_of(uint64_t p) { return unsigned(p >> 56); }

struct Totals {
  uint64_t execs = 0, bytes = 0, items = 0, warps = 0, requests = 0, lanes = 0;
  uint64_t sectors = 0, useful = 0, lines = 0;       // global and constant (lines: distinct 128-byte lines)
  uint64_t bank_sum = 0, bank_max = 0;               // local
  uint64_t distinct_sum = 0, distinct_max = 0;       // every space
  uint64_t contention_sum = 0, contention_max = 0;   // atomics
  uint64_t skipped = 0;
  unsigned wmin = 0, wmax = 0;
  int arg = -1;                                      // global: the kernel argument whose buffer it touched
  void add(const Totals& o) {
    if (arg < 0) arg = o.arg;
    execs += o.execs; bytes += o.bytes; items += o.items; warps += o.warps;
    requests += o.requests; lanes += o.lanes; sectors += o.sectors; useful += o.useful; lines += o.lines;
    bank_sum += o.bank_sum; bank_max = std::max(bank_max, o.bank_max);
    distinct_sum += o.distinct_sum; distinct_max = std::max(distinct_max, o.distinct_max);
    contention_sum += o.contention_sum; contention_max = std::max(contention_max, o.contention_max);
    skipped += o.skipped;
    if (o.wmin && (!wmin || o.wmin < wmin)) wmin = o.wmin;
    wmax = std::max(wmax, o.wmax);
  }
};

// One warp request kept to be drawn: every lane's packed access (0: absent).
struct Sample {
  bool set = false;
  uint64_t cost = 0;               // what makes a request the worst (see cost_of)
  size_t group = 0;                // work-group index
  unsigned epoch = 0, warp = 0;    // barriers passed, warp in the group
  uint64_t k = 0;                  // the warp's k-th request between those barriers
  uint64_t lanes[WARP] = {};
  bool before(const Sample& o) const {  // earlier in (group, barrier interval, warp, k)
    if (group != o.group) return group < o.group;
    if (epoch != o.epoch) return epoch < o.epoch;
    if (warp != o.warp) return warp < o.warp;
    return k < o.k;
  }
};

// The requests kept per instruction: the first of the first warp, the worst,
// and one per barrier interval of work-group 0 (its first warp's first).
struct Samples {
  Sample first, worst;
  std::vector<Sample> intervals;
  void add(const Sample& s) {
    if (!first.set || s.before(first)) first = s;
    if (!worst.set || s.cost > worst.cost || (s.cost == worst.cost && s.before(worst))) worst = s;
    if (s.group == 0 && intervals.size() < MAX_INTERVALS && (intervals.empty() || intervals.back().epoch != s.epoch))
      intervals.push_back(s);
  }
  void merge(const Samples& o) {
    if (o.first.set && (!first.set || o.first.before(first))) first = o.first;
    if (o.worst.set && (!worst.set || o.worst.cost > worst.cost || (o.worst.cost == worst.cost && o.worst.before(worst))))
      worst = o.worst;
    if (intervals.empty()) intervals = o.intervals;
  }
};

struct Site {  // one memory instruction of one kind
  const llvm::Instruction* inst;
  Kind kind;
  Space space;
  unsigned line, col;
  unsigned split;  // a vloadN from a scalar pointer: N loads of one element (else 1)
};

struct Issue {  // a read of local memory nothing wrote
  unsigned line = 0, col = 0;
  uint64_t count = 0;
  Size3 global, local, group;
};

// Per work-group state, owned by the plugin, used by one worker thread at a time.
struct Group {
  const WorkGroup* wg = nullptr;
  size_t items = 0, warps = 0;
  size_t index = 0;                                 // the group's linear index
  unsigned epoch = 0;                               // barriers passed
  std::vector<Samples> samples;                     // per site: requests kept to be drawn
  // per site: per warp the lanes' packed accesses, index k * lanes + lane
  std::vector<std::vector<std::vector<uint64_t>>> streams;
  std::vector<std::vector<uint32_t>> counters;      // per site: executions per work-item this epoch
  std::vector<std::vector<uint8_t>> touched;        // per site: work-item has executed it at all
  std::vector<std::vector<uint8_t>> warp_touched;   // per site: warp has executed it at all
  std::vector<Totals> totals;                       // per site
  std::unordered_map<size_t, std::vector<uint8_t>> written;  // local buffer -> bytes written
  std::unordered_map<size_t, Issue> uninit;         // site -> first uninitialised local read
};

thread_local Group* tls_group = nullptr;

// N when inst calls the builtin vloadN (mangled "_Z6vload4...", "_Z7vload16..."), else 1.
// vloadN reads from a pointer to scalars, which a compiler cannot prove aligned
// to the vector: NVIDIA's OpenCL and clang's NVPTX backend both emit N scalar
// loads for it (docs/results/ptx). Its sectors are those of the whole vector
// (the N loads share them, the later ones from L1), its requests N.
static unsigned vload_split(const llvm::Instruction* inst) {
  const auto* call = llvm::dyn_cast_or_null<llvm::CallInst>(inst);
  const llvm::Function* f = call ? call->getCalledFunction() : nullptr;
  if (!f) return 1;
  llvm::StringRef name = f->getName();
  size_t at = name.find("vload");
  if (!name.startswith("_Z") || at == llvm::StringRef::npos) return 1;
  unsigned n = 0;
  for (size_t i = at + 5; i < name.size() && name[i] >= '0' && name[i] <= '9'; i++) n = n * 10 + unsigned(name[i] - '0');
  return n > 1 ? n : 1;
}

class GpuModel : public Plugin {
public:
  explicit GpuModel(const Context* c) : Plugin(c) {
    const char* out = getenv("CLTUTOR_GM_OUT");
    if (out) m_out = out;
  }

  bool isThreadSafe() const override { return true; }

  void kernelBegin(const KernelInvocation* ki) override {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_invocation = ki;
    find_buffer_args(ki->getKernel());
    find_pointer_ints(ki->getKernel());
    Size3 gsz = ki->getGlobalSize();
    m_one_item = gsz.x * gsz.y * gsz.z == 1;
    m_answer.clear();
    m_totals.clear();
    m_samples.clear();
    m_uninit.clear();
    m_messages.clear();
    m_message_keys.clear();
    m_start = std::chrono::steady_clock::now();
  }

  void kernelEnd(const KernelInvocation* ki) override {
    std::vector<Group*> left;
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      for (auto& g : m_groups) left.push_back(g.second);
      m_groups.clear();
    }
    for (Group* g : left) {
      finish_group(*g);
      delete g;
    }
    tls_group = nullptr;
    std::lock_guard<std::mutex> lock(m_mutex);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    write_block(ki, secs);
    m_invocation = nullptr;
  }

  void workGroupBegin(const WorkGroup* wg) override { tls_group = group_for(wg); }

  void workGroupBarrier(const WorkGroup* wg, uint32_t) override {
    Group* g = group_for(wg);
    flush(*g);
    g->epoch++;
  }

  void workGroupComplete(const WorkGroup* wg) override {
    Group* g = group_for(wg);
    finish_group(*g);
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_groups.erase(wg);
    }
    if (tls_group == g) tls_group = nullptr;
    delete g;
  }

  void memoryLoad(const Memory* m, const WorkItem* wi, size_t addr, size_t size) override {
    access(m, wi, addr, size, K_LOAD);
  }
  void memoryStore(const Memory* m, const WorkItem* wi, size_t addr, size_t size, const uint8_t* data) override {
    access(m, wi, addr, size, K_STORE);
    if (m_one_item && data && m->getAddressSpace() == AddrSpaceGlobal) keep_answer(addr, size, data);
  }
  void memoryAtomicLoad(const Memory* m, const WorkItem* wi, AtomicOp, size_t addr, size_t size) override {
    access(m, wi, addr, size, K_ATOMIC);
  }
  void memoryAtomicStore(const Memory* m, const WorkItem* wi, AtomicOp, size_t addr, size_t size) override {
    // counted once, at its load; only note that the local bytes now hold a value
    if (m->getAddressSpace() == AddrSpaceLocal && wi) mark_written(group_of(wi), m, addr, size);
  }
  void memoryStore(const Memory* m, const WorkGroup* wg, size_t addr, size_t size, const uint8_t*) override {
    // async_work_group_copy into local memory
    if (m->getAddressSpace() == AddrSpaceLocal) mark_written(group_for(wg), m, addr, size);
  }

  void log(MessageType type, const char* message) override {
    if (type < WARNING || !message) return;
    std::string text(message), key = message_key(text);
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_message_keys.find(key);
    if (it != m_message_keys.end()) {
      m_messages[it->second].count++;
      return;
    }
    if (m_messages.size() >= MAX_MESSAGES) return;
    m_message_keys[key] = m_messages.size();
    m_messages.push_back({int(type), 1, text});
  }

private:
  struct Message {
    int type;
    uint64_t count;
    std::string text;
  };

  std::string m_out;
  std::mutex m_mutex;
  // A kernel of one work-item answers the host a question (a helper kernel):
  // the 32-bit words it stores in global memory, by address.
  bool m_one_item = false;
  // The kernel's global buffer arguments: [base, end) and the argument's index,
  // so that each access can say which buffer it touched (set before the
  // work-groups run, read-only while they do).
  struct BufferArg {
    size_t base, end;
    int arg;
  };
  std::vector<BufferArg> m_args;

  // A constant made from an address or turned into one.
  static bool address_constant(const llvm::Value* v) {
    auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(v);
    return ce && (ce->getOpcode() == llvm::Instruction::IntToPtr || ce->getOpcode() == llvm::Instruction::PtrToInt);
  }

  // The objects a pointer may point into, where each is one (an argument, a global, a private array); empty
  // where that cannot be told.
  static std::set<const llvm::Value*> objects_of(const llvm::Value* p) {
    llvm::SmallVector<const llvm::Value*, 4> objs;
    llvm::getUnderlyingObjects(p, objs, nullptr, 12);
    std::set<const llvm::Value*> out;
    for (const llvm::Value* o : objs) {
      if (!llvm::isa<llvm::Argument>(o) && !llvm::isa<llvm::GlobalVariable>(o) && !llvm::isa<llvm::AllocaInst>(o))
        return {};
      out.insert(o);
    }
    return out;
  }

  // Whether an instruction lets the kernel see an address: a pointer converted to an integer or back, or
  // two pointers into different objects compared (their order is where each was placed).
  static bool reveals_address(const llvm::Instruction& in) {
    if (llvm::isa<llvm::PtrToIntInst>(in) || llvm::isa<llvm::IntToPtrInst>(in)) return true;
    for (const llvm::Use& u : in.operands())
      if (address_constant(u.get())) return true;
    auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(&in);
    if (!cmp || !cmp->getOperand(0)->getType()->isPointerTy()) return false;
    if (llvm::isa<llvm::ConstantPointerNull>(cmp->getOperand(0)) || llvm::isa<llvm::ConstantPointerNull>(cmp->getOperand(1)))
      return false;
    std::set<const llvm::Value*> a = objects_of(cmp->getOperand(0)), b = objects_of(cmp->getOperand(1));
    if (a.empty() || b.empty()) return false;
    for (const llvm::Value* o : a)
      if (b.count(o)) return false;
    return true;
  }

  // Every place the program can see an address (reveals_address): its value differs between the simulator
  // and a device, so code that computes with it can take another path on each.
  void find_pointer_ints(const Kernel* k) {
    m_pointer_ints.clear();
    const llvm::Function* kf = k->getFunction();
    const llvm::Module* mod = kf ? kf->getParent() : nullptr;
    if (!mod) return;
    for (const llvm::Function& fn : *mod)
      for (const llvm::BasicBlock& bb : fn)
        for (const llvm::Instruction& in : bb) {
          if (!reveals_address(in)) continue;
          const llvm::DebugLoc& dl = in.getDebugLoc();
          m_pointer_ints.insert({dl ? dl.getLine() : 0u, dl ? dl.getCol() : 0u});
        }
  }

  void find_buffer_args(const Kernel* k) {
    m_args.clear();
    const Memory* global = m_context->getGlobalMemory();
    for (auto v = k->values_begin(); v != k->values_end(); ++v) {
      auto* a = llvm::dyn_cast<llvm::Argument>(v->first);
      if (!a || !a->getType()->isPointerTy() || v->second.size != sizeof(size_t)) continue;
      size_t base = v->second.getPointer();
      if (!base || !global->isAddressValid(base)) continue;
      const Memory::Buffer* b = global->getBuffer(base);
      if (b) m_args.push_back({base, base + b->size, int(a->getArgNo())});
    }
  }

  int buffer_arg(size_t addr) const {
    for (const BufferArg& b : m_args)
      if (addr >= b.base && addr < b.end) return b.arg;
    return -1;
  }
  std::map<size_t, uint32_t> m_answer;

  void keep_answer(size_t addr, size_t size, const uint8_t* data) {
    std::lock_guard<std::mutex> lock(m_mutex);
    for (size_t o = 0; o + 4 <= size && m_answer.size() < 16; o += 4) {
      uint32_t w;
      memcpy(&w, data + o, 4);
      m_answer[addr + o] = w;
    }
  }

  const KernelInvocation* m_invocation = nullptr;
  std::chrono::steady_clock::time_point m_start;
  std::vector<Site> m_sites;                                  // site id -> what it is
  std::unordered_map<uint64_t, size_t> m_site_ids;            // (instruction, kind) -> site id
  std::vector<Totals> m_totals;                               // per site, this kernel
  std::vector<Samples> m_samples;                             // per site, this kernel
  std::unordered_map<size_t, Issue> m_uninit;
  std::set<std::pair<unsigned, unsigned>> m_pointer_ints;  // line, column
  std::unordered_map<const WorkGroup*, Group*> m_groups;
  std::vector<Message> m_messages;
  std::unordered_map<std::string, size_t> m_message_keys;

  // One key per kind of problem and source location, so that the same
  // error in every work-item is one entry with a count.
  static std::string message_key(const std::string& text) {
    size_t eol = text.find('\n');
    std::string first = text.substr(0, eol);
    size_t at = first.find(" at ");
    std::string key = first.substr(0, at);
    size_t pos = 0;
    while ((pos = text.find("At line ", pos)) != std::string::npos) {
      size_t end = text.find('\n', pos);
      key += "|" + text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
      pos += 8;
    }
    return key;
  }

  Group* group_for(const WorkGroup* wg) {
    if (tls_group && tls_group->wg == wg) return tls_group;
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_groups.find(wg);
    if (it != m_groups.end()) return tls_group = it->second;
    Group* g = new Group;
    g->wg = wg;
    Size3 s = wg->getGroupSize();
    g->items = s.x * s.y * s.z;
    g->index = wg->getGroupIndex();
    g->warps = (g->items + WARP - 1) / WARP;
    m_groups[wg] = g;
    return tls_group = g;
  }

  Group* group_of(const WorkItem* wi) { return group_for(wi->getWorkGroup()); }

  static Space space_of(const Memory* m, const llvm::Instruction* inst) {
    unsigned as = m->getAddressSpace();
    if (as == AddrSpaceLocal) return S_LOCAL;
    if (as == AddrSpaceConstant) return S_CONSTANT;
    // __constant buffers live in Oclgrind's global memory: ask the instruction
    if (inst) {
      if (auto* l = llvm::dyn_cast<llvm::LoadInst>(inst)) {
        if (l->getPointerAddressSpace() == AddrSpaceConstant) return S_CONSTANT;
      } else if (auto* c = llvm::dyn_cast<llvm::CallInst>(inst)) {
        for (unsigned i = 0; i < c->arg_size(); i++) {
          llvm::Type* t = c->getArgOperand(i)->getType();
          if (t->isPointerTy() && t->getPointerAddressSpace() == AddrSpaceConstant) return S_CONSTANT;
        }
      }
    }
    return S_GLOBAL;
  }

  size_t site_id(const llvm::Instruction* inst, Kind kind, const Memory* m) {
    uint64_t key = (uint64_t(uintptr_t(inst)) << 2) | uint64_t(kind);
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_site_ids.find(key);
    if (it != m_site_ids.end()) return it->second;
    Site s;
    s.inst = inst;
    s.kind = kind;
    s.space = space_of(m, inst);
    s.line = s.col = 0;
    s.split = kind == K_LOAD ? vload_split(inst) : 1;
    if (inst) {
      const llvm::DebugLoc& dl = inst->getDebugLoc();
      if (dl) {
        s.line = dl.getLine();
        s.col = dl.getCol();
      }
    }
    m_sites.push_back(s);
    return m_site_ids[key] = m_sites.size() - 1;
  }

  // A small per-thread cache in front of site_id; *out gets a copy of the site.
  size_t cached_site(const llvm::Instruction* inst, Kind kind, const Memory* m, Site* out) {
    static thread_local Site last[4];
    static thread_local size_t last_id[4];
    static thread_local unsigned next = 0;
    for (unsigned i = 0; i < 4; i++)
      if (last[i].inst == inst && last[i].kind == kind && inst) {
        *out = last[i];
        return last_id[i];
      }
    size_t id = site_id(inst, kind, m);
    *out = site(id);
    last[next] = *out;
    last_id[next] = id;
    next = (next + 1) & 3;
    return id;
  }

  void mark_written(Group* g, const Memory* m, size_t addr, size_t size) {
    size_t buf = m->extractBuffer(addr), off = m->extractOffset(addr);
    auto& w = g->written[buf];
    if (w.empty()) {
      const Memory::Buffer* b = m->getBuffer(addr);
      w.assign(b ? b->size : off + size, 0);
    }
    if (off + size > w.size()) w.resize(off + size, 0);
    std::fill(w.begin() + off, w.begin() + off + size, 1);
  }

  void check_written(Group* g, const Memory* m, const WorkItem* wi, size_t site, size_t addr, size_t size) {
    size_t buf = m->extractBuffer(addr), off = m->extractOffset(addr);
    auto it = g->written.find(buf);
    bool ok = it != g->written.end() && off + size <= it->second.size();
    if (ok)
      for (size_t i = off; i < off + size; i++)
        if (!it->second[i]) { ok = false; break; }
    if (ok) return;
    Issue& is = g->uninit[site];
    if (is.count++ == 0) {
      is.global = wi->getGlobalID();
      is.local = wi->getLocalID();
      is.group = g->wg->getGroupID();
    }
  }

  void access(const Memory* m, const WorkItem* wi, size_t addr, size_t size, Kind kind) {
    if (!wi || m->getAddressSpace() == AddrSpacePrivate) return;
    const llvm::Instruction* inst = wi->getCurrentInstruction();
    Site s;
    size_t id = cached_site(inst, kind, m, &s);
    Group* g = group_of(wi);
    if (m->getAddressSpace() == AddrSpaceLocal) {
      if (kind == K_STORE) mark_written(g, m, addr, size);
      else check_written(g, m, wi, id, addr, size);
    }
    if (g->streams.size() <= id) {
      g->streams.resize(id + 1);
      g->counters.resize(id + 1);
      g->touched.resize(id + 1);
      g->warp_touched.resize(id + 1);
      g->totals.resize(id + 1);
      g->samples.resize(id + 1);
    }
    auto& st = g->streams[id];
    if (st.empty()) {
      st.resize(g->warps);
      g->counters[id].assign(g->items, 0);
      g->touched[id].assign(g->items, 0);
      g->warp_touched[id].assign(g->warps, 0);
    }
    Size3 lid = wi->getLocalID(), gs = g->wg->getGroupSize();
    size_t lin = lid.x + gs.x * (lid.y + gs.y * lid.z);
    size_t warp = lin / WARP, lane = lin % WARP;
    size_t lanes = std::min<size_t>(WARP, g->items - warp * WARP);
    Totals& t = g->totals[id];
    if (t.arg < 0 && m->getAddressSpace() == AddrSpaceGlobal) t.arg = buffer_arg(addr);
    t.execs++;
    t.bytes += size;
    unsigned w = unsigned(size);
    if (!t.wmin || w < t.wmin) t.wmin = w;
    if (w > t.wmax) t.wmax = w;
    if (!g->touched[id][lin]) {
      g->touched[id][lin] = 1;
      t.items++;
    }
    if (!g->warp_touched[id][warp]) {
      g->warp_touched[id][warp] = 1;
      t.warps++;
    }
    uint64_t p = pack(addr, size);
    if (lanes == 1) {  // a warp of one work-item: the request is complete now
      uint64_t cost = measure(s, &p, 1, t);
      keep(*g, id, cost, warp, g->counters[id][lin]++, &p, 1);
      return;
    }
    uint32_t& k = g->counters[id][lin];
    if (k >= MAX_PER_EPOCH) {
      t.skipped++;
      return;
    }
    auto& slots = st[warp];
    size_t need = (size_t(k) + 1) * lanes;
    if (slots.size() < need) slots.resize(std::max(need, slots.size() * 2), 0);
    slots[size_t(k) * lanes + lane] = p;
    k++;
  }

  // Measures every rebuilt request of the group and forgets them (a barrier or the group's end).
  void flush(Group& g) {
    for (size_t id = 0; id < g.streams.size(); id++) {
      auto& st = g.streams[id];
      if (st.empty()) continue;
      Totals& t = g.totals[id];
      Site s = site(id);
      for (size_t w = 0; w < st.size(); w++) {
        auto& slots = st[w];
        if (slots.empty()) continue;
        size_t lanes = std::min<size_t>(WARP, g.items - w * WARP);
        uint64_t req[WARP];
        for (size_t base = 0; base + lanes <= slots.size(); base += lanes) {
          size_t n = 0;
          for (size_t l = 0; l < lanes; l++)
            if (slots[base + l]) req[n++] = slots[base + l];
          if (!n) continue;
          uint64_t cost = measure(s, req, n, t);
          keep(g, id, cost, unsigned(w), base / lanes, &slots[base], lanes);
        }
        std::vector<uint64_t>().swap(slots);
      }
      std::fill(g.counters[id].begin(), g.counters[id].end(), 0);
    }
  }

  // Offers a measured request (lanes' packed accesses, 0 for absent lanes) to the site's samples.
  static void keep(Group& g, size_t id, uint64_t cost, unsigned warp, uint64_t k, const uint64_t* lanes, size_t n) {
    Samples& ss = g.samples[id];
    Sample c;
    c.set = true;
    c.cost = cost;
    c.group = g.index;
    c.epoch = g.epoch;
    c.warp = warp;
    c.k = k;
    // only copy lanes when the request will be kept
    bool first = !ss.first.set || c.before(ss.first);
    bool worst = !ss.worst.set || cost > ss.worst.cost || (cost == ss.worst.cost && c.before(ss.worst));
    bool interval = c.group == 0 && ss.intervals.size() < MAX_INTERVALS &&
                    (ss.intervals.empty() || ss.intervals.back().epoch != c.epoch);
    if (!first && !worst && !interval) return;
    std::copy(lanes, lanes + std::min<size_t>(n, WARP), c.lanes);
    ss.add(c);
  }

  // Adds one warp request (n lanes' packed accesses) to t; returns its cost
  // for choosing the worst request: sectors (global), distinct addresses then
  // sectors (constant), bank-conflict degree (local), contention (atomics).
  static uint64_t measure(const Site& s, uint64_t* lanes, size_t n, Totals& t) {
    t.requests++;
    t.lanes += n;
    // distinct addresses
    uint64_t a[WARP];
    for (size_t i = 0; i < n; i++) a[i] = addr_of(lanes[i]);
    std::sort(a, a + n);
    uint64_t distinct = 0, run = 0, worst_run = 0;
    for (size_t i = 0; i < n; i++) {
      if (i == 0 || a[i] != a[i - 1]) {
        distinct++;
        run = 1;
      } else {
        run++;
      }
      worst_run = std::max(worst_run, run);
    }
    t.distinct_sum += distinct;
    t.distinct_max = std::max(t.distinct_max, distinct);
    if (s.kind == K_ATOMIC) {
      t.contention_sum += worst_run;
      t.contention_max = std::max(t.contention_max, worst_run);
    }
    uint64_t cost = 0;
    if (s.space == S_LOCAL) {
      uint64_t degree = bank_degree(lanes, n);
      t.bank_sum += degree;
      t.bank_max = std::max(t.bank_max, degree);
      cost = degree;
    } else {
      uint64_t sec[WARP * 9];
      size_t ns = 0;
      uint64_t requested = 0;
      for (size_t i = 0; i < n; i++) {
        uint64_t lo = addr_of(lanes[i]), sz = size_of(lanes[i]);
        requested += sz;
        for (uint64_t x = lo / 32; x <= (lo + sz - 1) / 32 && ns < WARP * 9; x++) sec[ns++] = x;
      }
      std::sort(sec, sec + ns);
      uint64_t sectors = uint64_t(std::unique(sec, sec + ns) - sec);
      for (uint64_t i = 0; i < sectors; i++)
        if (i == 0 || sec[i] / 4 != sec[i - 1] / 4) t.lines++;
      t.sectors += sectors;
      t.useful += std::min<uint64_t>(requested, sectors * 32);
      cost = s.space == S_CONSTANT ? (distinct << 16) | sectors : sectors;
    }
    return s.kind == K_ATOMIC ? (worst_run << 32) | cost : cost;
  }

  // Bank-conflict degree of one local request: 32 banks of 4 bytes; lanes
  // reading the same word share it; wider accesses are served in phases of
  // 128 bytes (8-byte: half-warps, 16-byte: quarter-warps).
  static uint64_t bank_degree(const uint64_t* lanes, size_t n) {
    unsigned width = 4;
    for (size_t i = 0; i < n; i++) width = std::max(width, size_of(lanes[i]));
    size_t per_phase = std::max<size_t>(1, 128 / std::min<unsigned>(width, 128));
    uint64_t worst = 1;
    for (size_t p0 = 0; p0 < n; p0 += per_phase) {
      uint64_t words[WARP * 32];
      size_t nw = 0;
      for (size_t i = p0; i < std::min(n, p0 + per_phase); i++) {
        uint64_t lo = addr_of(lanes[i]), sz = size_of(lanes[i]);
        for (uint64_t w = lo / 4; w <= (lo + sz - 1) / 4 && nw < WARP * 32; w++) words[nw++] = w;
      }
      std::sort(words, words + nw, [](uint64_t x, uint64_t y) {
        return (x % 32) != (y % 32) ? (x % 32) < (y % 32) : x < y;
      });
      nw = size_t(std::unique(words, words + nw) - words);
      uint64_t count = 0;
      for (size_t i = 0; i < nw; i++) {
        count = (i > 0 && words[i] % 32 == words[i - 1] % 32) ? count + 1 : 1;
        worst = std::max(worst, count);
      }
    }
    return worst;
  }

  Site site(size_t id) {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_sites[id];
  }

  // Measures what is left of a group and adds its figures to the kernel's.
  void finish_group(Group& g) {
    flush(g);
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_totals.size() < g.totals.size()) m_totals.resize(g.totals.size());
    for (size_t i = 0; i < g.totals.size(); i++) m_totals[i].add(g.totals[i]);
    g.totals.clear();
    if (m_samples.size() < g.samples.size()) m_samples.resize(g.samples.size());
    for (size_t i = 0; i < g.samples.size(); i++) m_samples[i].merge(g.samples[i]);
    g.samples.clear();
    for (auto& u : g.uninit) {
      Issue& is = m_uninit[u.first];
      if (is.count == 0) is = u.second;
      else is.count += u.second.count;
    }
    g.uninit.clear();
  }

  static std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) {
      if (c == '\\') o += "\\\\";
      else if (c == '\n') o += "\\n";
      else if (c == '\t') o += "\\t";
      else if (c == '\r') continue;
      else o += c;
    }
    return o;
  }

  // "req ROLE EPOCH GROUP WARP" and 32 lanes, "-" for an absent lane, else
  // ADDRESS:SIZE (hex address); after the instruction's "inst" record.
  static void write_sample(FILE* f, const char* role, const Sample& s) {
    fprintf(f, "req %s %u %zu %u", role, s.epoch, s.group, s.warp);
    for (unsigned l = 0; l < WARP; l++) {
      if (s.lanes[l]) fprintf(f, " %llx:%u", (unsigned long long)addr_of(s.lanes[l]), size_of(s.lanes[l]));
      else fputs(" -", f);
    }
    fputc('\n', f);
  }

  static void write_samples(FILE* f, const Site&, const Samples& ss) {
    if (ss.first.set) write_sample(f, "first", ss.first);
    if (ss.worst.set) write_sample(f, "worst", ss.worst);
    if (ss.intervals.size() > 1)  // only where barriers cut the instruction's requests into intervals
      for (const Sample& s : ss.intervals) write_sample(f, "interval", s);
  }

  void write_block(const KernelInvocation* ki, double secs) {
    if (m_out.empty()) return;
    FILE* f = fopen(m_out.c_str(), "a");
    if (!f) return;
    Size3 gsz = ki->getGlobalSize(), lsz = ki->getLocalSize();
    fprintf(f, "kernel %s %zu %zu %zu %zu %zu %zu %zu %.6f\n", ki->getKernel()->getName().c_str(),
            ki->getWorkDim(), gsz.x, gsz.y, gsz.z, lsz.x, lsz.y, lsz.z, secs);
    static const char* kinds[] = {"load", "store", "atomic"};
    static const char* spaces[] = {"global", "constant", "local"};
    for (size_t i = 0; i < m_totals.size() && i < m_sites.size(); i++) {
      Totals t = m_totals[i];
      const Site& s = m_sites[i];
      if (!t.execs) continue;
      if (s.split > 1 && t.wmin % s.split == 0 && t.wmax % s.split == 0) {
        // N loads of one element a work-item, each a request of the warp over the vector's sectors,
        // and each through the vector's lines: the L1 and the constant cache look every one up
        t.wmin /= s.split, t.wmax /= s.split;
        t.execs *= s.split, t.requests *= s.split, t.lanes *= s.split, t.distinct_sum *= s.split;
        t.bank_sum *= s.split, t.skipped *= s.split, t.lines *= s.split;
      }
      fprintf(f,
              "inst %u %u %s %s %u %u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %d %llu\n",
              s.line, s.col, spaces[s.space], kinds[s.kind], t.wmin, t.wmax, (unsigned long long)t.execs,
              (unsigned long long)t.items, (unsigned long long)t.bytes, (unsigned long long)t.warps,
              (unsigned long long)t.requests, (unsigned long long)t.lanes, (unsigned long long)t.sectors,
              (unsigned long long)t.useful, (unsigned long long)t.bank_sum, (unsigned long long)t.bank_max,
              (unsigned long long)t.distinct_sum, (unsigned long long)t.distinct_max,
              (unsigned long long)t.contention_sum, (unsigned long long)t.contention_max,
              (unsigned long long)t.skipped, t.arg, (unsigned long long)t.lines);
      if (i < m_samples.size()) write_samples(f, s, m_samples[i]);
    }
    for (auto& u : m_uninit) {
      const Site& s = m_sites[u.first];
      const Issue& is = u.second;
      fprintf(f, "uninit %llu %u %u %zu %zu %zu %zu %zu %zu %zu %zu %zu\n", (unsigned long long)is.count, s.line,
              s.col, is.global.x, is.global.y, is.global.z, is.local.x, is.local.y, is.local.z, is.group.x,
              is.group.y, is.group.z);
    }
    for (auto& p : m_pointer_ints) fprintf(f, "ptrtoint %u %u\n", p.first, p.second);
    if (!m_answer.empty()) {
      fprintf(f, "answer");
      for (auto& w : m_answer) fprintf(f, " %u", w.second);
      fprintf(f, "\n");
    }
    for (auto& msg : m_messages)
      fprintf(f, "msg %d %llu\t%s\n", msg.type, (unsigned long long)msg.count, escape(msg.text).c_str());
    fprintf(f, "end\n");
    fclose(f);
  }
};

GpuModel* the_plugin = nullptr;

}  // namespace

extern "C" void initializePlugins(Context* context) {
  the_plugin = new GpuModel(context);
  context->registerPlugin(the_plugin);
}

extern "C" void releasePlugins(Context* context) {
  context->unregisterPlugin(the_plugin);
  delete the_plugin;
  the_plugin = nullptr;
}
