/*
 * What the services need from V8 and glibc that Node does not give JavaScript:
 *
 * - mallocTrim(): glibc's malloc_trim(0), which gives back the free pages inside glibc's heap, not
 *   only those at its top. A process that read many 1-2 MB pages keeps their freed memory in glibc's
 *   heap, pinned by smaller blocks allocated after them; only malloc_trim returns it (bench:api: the
 *   api's idle collection took it from 216 MB resident to 211 without this, and from 204 MB to 137
 *   with it). It first frees the blocks kept for the next pages' text (below). Elsewhere than glibc
 *   there is nothing to trim: it returns false.
 * - lowMemoryNotification(): V8's collection for a process told it is short of memory: full
 *   collections until nothing more is freed, the young generation shrunk to its least and V8's free
 *   pages unmapped. The full collection `gc()` runs keeps the young generation at the size a load grew
 *   it to (32 MB resident, empty) unless V8 happens to judge the allocation rate low at that moment
 *   (bench:api, 12 s after the load: a V8 heap of 45 or 76 MB after `gc()`, 37 MB after this).
 * - oneByteText(bytes): a string of one character per byte (as `toString('latin1')` makes it) whose
 *   characters are the bytes themselves: an external string that holds the bytes' memory alive,
 *   copying nothing. `toString('latin1')` copies a 1-2 MB page into memory just taken from the
 *   system, which costs more to touch than to fill (bench:bulk: 1.4-6 ms a page on this machine's
 *   virtual machines, where the same copy into memory already touched takes 0.2 ms). The bytes must
 *   not change while the string lives; a page's never do once read. It takes the bytes: bytes that
 *   are the whole of their buffer leave it (the buffer is detached, as a transfer to another thread
 *   detaches it), so that V8 counts their memory once, as the string's (see BytesAsOneByteText).
 *
 * - joinedOneByteText(parts): the same for a page that came in several parts (the chunks its socket
 *   read it in), joined into a block of memory kept from an earlier page (PageBlocks), not one just
 *   taken from the system; joinedBytes(parts): the parts joined so into an ArrayBuffer, to be moved
 *   to a parse thread, which reads it with oneByteText (the block goes back once the text, or the
 *   buffer where no text took it, is freed). glibc maps a block of a page's size afresh and unmaps
 *   it when freed, so a page's joining often faulted its 1-2 MB in anew (bench:bulk's parse thread,
 *   joining with Buffer.concat: 9-124 ms a call of twenty pages, up to 8,000 page faults;
 *   bench:parse's burst of twenty simulator pages in 64 KB chunks on one parse thread: 103-163 ms
 *   with kept blocks against 173-253 with Buffer.concat, three runs each). The parts are left empty
 *   where they are the whole of their buffer: their memory goes back at once, not at the thread's
 *   next collection.
 *
 * Built against the running Node's headers: V8's interface is stable within one Node major version
 * only, so build.mjs names the file by that version's module ABI (`process.versions.modules`). Each
 * function acts on the isolate of the thread that calls it: the module is context-aware, so parse
 * threads load it too. It is never unloaded: Node unloads an addon a worker thread loaded when that
 * thread stops, before V8 frees the thread's heap, whose texts then call back into this code to let
 * their bytes go (a process whose main thread had not loaded it crashed there).
 */
#include <dlfcn.h>
#include <node.h>
#include <v8.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>
#include <utility>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {

/**
 * Bytes as a one-byte string's characters; holding the bytes' backing store keeps them alive as long
 * as the string. The string tells V8 of the memory it holds, as Node's own external strings do (a
 * copied page's text did): V8 counts an ArrayBuffer's memory only while the buffer lives, and a
 * collector that does not see a page's bytes held on collects too late (bench:jobs: the jobs process
 * peaked at 480 MB where it had peaked at 330). The buffer the bytes came in is detached where it can
 * be, which takes them out of its count: counted twice, the twenty pages of a bulk search read at
 * once passed V8's external memory limit and started full collections in the middle of the call.
 */
class BytesAsOneByteText final : public v8::String::ExternalOneByteStringResource {
 public:
  BytesAsOneByteText(v8::Isolate* isolate, std::shared_ptr<v8::BackingStore> store, size_t offset, size_t length)
      : isolate_(isolate), store_(std::move(store)), data_(static_cast<const char*>(store_->Data()) + offset), length_(length) {}
  ~BytesAsOneByteText() override {
    if (counted_) isolate_->AdjustAmountOfExternalAllocatedMemory(-static_cast<int64_t>(length_));
  }
  /** Tells V8 of the bytes held, once the buffer they came in no longer counts them (or does so for good). */
  void Count() {
    counted_ = true;
    isolate_->AdjustAmountOfExternalAllocatedMemory(static_cast<int64_t>(length_));
  }
  const char* data() const override { return data_; }
  size_t length() const override { return length_; }

 private:
  v8::Isolate* const isolate_;
  const std::shared_ptr<v8::BackingStore> store_;
  const char* const data_;
  const size_t length_;
  bool counted_ = false;
};


/**
 * Blocks of memory that held a page's text, kept for the next pages (up to KEPT_BYTES), so that a
 * page's joining writes to memory already touched. One for the process, as glibc's heap is: a block
 * freed by the text of one thread is reused by any. Never destroyed: a thread's texts give back their
 * blocks when its heap is freed, which can come after static destructors at exit. `mallocTrim` frees
 * those kept, before glibc gives back its free pages (the idle collection).
 */
class PageBlocks {
 public:
  static PageBlocks& Process() {
    static PageBlocks* const blocks = new PageBlocks();
    return *blocks;
  }

  /** A block of at least `length` bytes, and its capacity; null when there is no memory for it. */
  char* Take(size_t length, size_t* capacity) {
    const size_t rounded = (length + GRANULE - 1) / GRANULE * GRANULE;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // The smallest kept block that holds it, unless it is more than twice the size (kept for a larger page).
      auto found = kept_.lower_bound(rounded);
      if (found != kept_.end() && found->first <= 2 * rounded) {
        *capacity = found->first;
        char* data = found->second;
        kept_bytes_ -= found->first;
        kept_.erase(found);
        return data;
      }
    }
    *capacity = rounded;
    return static_cast<char*>(std::malloc(rounded));
  }

  void GiveBack(char* data, size_t capacity) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (kept_bytes_ + capacity <= KEPT_BYTES) {
        kept_.emplace(capacity, data);
        kept_bytes_ += capacity;
        return;
      }
    }
    std::free(data);
  }

  /** Frees every kept block. */
  void FreeKept() {
    std::multimap<size_t, char*> kept;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      kept.swap(kept_);
      kept_bytes_ = 0;
    }
    for (auto& [capacity, data] : kept) std::free(data);
  }

 private:
  /** Capacities are rounded up to this: pages of slightly different sizes reuse each other's blocks. */
  static constexpr size_t GRANULE = 256 * 1024;
  /**
   * Texts outlive their page's reading until a collection frees them (a full one, for those promoted
   * meanwhile), so blocks come back in bunches: 12-24 pages' worth is kept, the rest freed.
   */
  static constexpr size_t KEPT_BYTES = 24 * 1024 * 1024;
  std::mutex mutex_;
  std::multimap<size_t, char*> kept_;
  size_t kept_bytes_ = 0;
};

/** A page's parts joined in a block of PageBlocks, as a one-byte string's characters; the block goes back when the string is freed. */
class JoinedOneByteText final : public v8::String::ExternalOneByteStringResource {
 public:
  JoinedOneByteText(v8::Isolate* isolate, char* data, size_t length, size_t capacity) : isolate_(isolate), data_(data), length_(length), capacity_(capacity) {
    isolate_->AdjustAmountOfExternalAllocatedMemory(static_cast<int64_t>(length_));
  }
  ~JoinedOneByteText() override {
    isolate_->AdjustAmountOfExternalAllocatedMemory(-static_cast<int64_t>(length_));
    PageBlocks::Process().GiveBack(data_, capacity_);
  }
  const char* data() const override { return data_; }
  size_t length() const override { return length_; }

 private:
  v8::Isolate* const isolate_;
  char* const data_;
  const size_t length_;
  const size_t capacity_;
};

void MallocTrim(const v8::FunctionCallbackInfo<v8::Value>& args) {
  bool released = false;
  PageBlocks::Process().FreeKept();
#ifdef __GLIBC__
  released = malloc_trim(0) == 1;
#endif
  args.GetReturnValue().Set(released);
}

void LowMemoryNotification(const v8::FunctionCallbackInfo<v8::Value>& args) {
  args.GetIsolate()->LowMemoryNotification();
}

/** Detaches a buffer a view is the whole of, which frees its memory now (V8 keeps it until the buffer is collected). */
void LetGoOf(v8::Isolate* isolate, v8::Local<v8::Uint8Array> view) {
  v8::Local<v8::ArrayBuffer> buffer = view->Buffer();
  if (view->ByteOffset() != 0 || view->ByteLength() != buffer->ByteLength() || !buffer->IsDetachable()) return;
  v8::TryCatch refused(isolate);
  if (buffer->Detach(v8::Local<v8::Value>()).IsNothing()) refused.Reset();
}

void OneByteText(const v8::FunctionCallbackInfo<v8::Value>& args) {
  v8::Isolate* isolate = args.GetIsolate();
  if (args.Length() < 1 || !args[0]->IsUint8Array()) {
    isolate->ThrowException(v8::Exception::TypeError(v8::String::NewFromUtf8Literal(isolate, "oneByteText takes a Uint8Array")));
    return;
  }
  v8::Local<v8::Uint8Array> view = args[0].As<v8::Uint8Array>();
  const size_t length = view->ByteLength();
  v8::Local<v8::ArrayBuffer> buffer = view->Buffer();
  std::shared_ptr<v8::BackingStore> store = buffer->GetBackingStore();
  // A string's characters never change: bytes another thread can write, or a buffer that can shrink, are refused.
  if (store->IsShared() || store->IsResizableByUserJavaScript()) {
    isolate->ThrowException(v8::Exception::TypeError(v8::String::NewFromUtf8Literal(isolate, "oneByteText takes bytes that are neither shared nor resizable")));
    return;
  }
  // V8 requires an external string's data to exist (an empty or detached buffer has none).
  if (length == 0 || store->Data() == nullptr) {
    args.GetReturnValue().SetEmptyString();
    return;
  }
  auto* resource = new BytesAsOneByteText(isolate, std::move(store), view->ByteOffset(), length);
  v8::Local<v8::String> text;
  if (!v8::String::NewExternalOneByte(isolate, resource).ToLocal(&text)) {
    // Refused (longer than a string may be): V8 did not take the resource.
    delete resource;
    isolate->ThrowException(v8::Exception::RangeError(v8::String::NewFromUtf8Literal(isolate, "oneByteText: the bytes are longer than a string may be")));
    return;
  }
  // Bytes that are part of a buffer stay in it (the rest is someone else's): counted twice while it lives.
  // Node's pool, whose buffers it marks untransferable without V8 knowing, lends parts only, and the
  // loader copies anything under 64 KB. A detach refused (a key set on the buffer) leaves it as it is.
  LetGoOf(isolate, view);
  resource->Count();
  args.GetReturnValue().Set(text);
}


/** Parts joined in a block of PageBlocks (none for no bytes). */
struct Joined {
  char* data;
  size_t length;
  size_t capacity;
};

/**
 * The parts (an array of Uint8Array, the first argument) copied into a block of PageBlocks, then let go
 * of (`LetGoOf`: their memory is not counted beside the block's); nothing, with an exception thrown, for
 * anything else, or for parts whose lengths changed while they were read (reading an array's elements
 * can run JavaScript).
 */
std::optional<Joined> JoinParts(const v8::FunctionCallbackInfo<v8::Value>& args, const char* name) {
  v8::Isolate* isolate = args.GetIsolate();
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  auto refuse = [&](const char* why) -> std::optional<Joined> {
    isolate->ThrowException(v8::Exception::TypeError(v8::String::NewFromUtf8(isolate, (std::string(name) + why).c_str()).ToLocalChecked()));
    return std::nullopt;
  };
  if (args.Length() < 1 || !args[0]->IsArray()) return refuse(" takes an array of Uint8Array");
  v8::Local<v8::Array> parts = args[0].As<v8::Array>();
  std::vector<v8::Local<v8::Uint8Array>> views;
  std::vector<size_t> lengths;
  Joined joined{nullptr, 0, 0};
  for (uint32_t index = 0; index < parts->Length(); index += 1) {
    v8::Local<v8::Value> part;
    if (!parts->Get(context, index).ToLocal(&part)) return std::nullopt;
    if (!part->IsUint8Array()) return refuse(" takes an array of Uint8Array");
    views.push_back(part.As<v8::Uint8Array>());
    lengths.push_back(views.back()->ByteLength());
    joined.length += lengths.back();
  }
  auto fail = [&](const char* why) -> std::optional<Joined> {
    isolate->ThrowException(v8::Exception::RangeError(v8::String::NewFromUtf8(isolate, (std::string(name) + why).c_str()).ToLocalChecked()));
    return std::nullopt;
  };
  if (joined.length > v8::String::kMaxLength) return fail(": the bytes are longer than a string may be");
  if (joined.length == 0) return joined;
  joined.data = PageBlocks::Process().Take(joined.length, &joined.capacity);
  if (joined.data == nullptr) return fail(": out of memory");
  size_t at = 0;
  for (size_t index = 0; index < views.size(); index += 1) {
    // A part whose length is not the one counted (its buffer moved away or resized meanwhile) is refused:
    // CopyContents alone would read a detached view's old extent.
    if (views[index]->ByteLength() != lengths[index] || views[index]->Buffer()->WasDetached() || joined.length - at < lengths[index]) {
      PageBlocks::Process().GiveBack(joined.data, joined.capacity);
      return refuse(": a part changed while it was read");
    }
    at += views[index]->CopyContents(joined.data + at, lengths[index]);
  }
  for (v8::Local<v8::Uint8Array> view : views) LetGoOf(isolate, view);
  return joined;
}

void JoinedText(const v8::FunctionCallbackInfo<v8::Value>& args) {
  v8::Isolate* isolate = args.GetIsolate();
  const std::optional<Joined> joined = JoinParts(args, "joinedOneByteText");
  if (!joined) return;
  if (joined->length == 0) {
    args.GetReturnValue().SetEmptyString();
    return;
  }
  auto* resource = new JoinedOneByteText(isolate, joined->data, joined->length, joined->capacity);
  v8::Local<v8::String> text;
  if (!v8::String::NewExternalOneByte(isolate, resource).ToLocal(&text)) {
    // V8 did not take the resource (its length was checked before: not expected).
    delete resource;
    isolate->ThrowException(v8::Exception::RangeError(v8::String::NewFromUtf8Literal(isolate, "joinedOneByteText: the bytes could not be made a string")));
    return;
  }
  args.GetReturnValue().Set(text);
}

/** A block of PageBlocks as an ArrayBuffer's memory: the block goes back when the buffer's memory is freed (in whichever thread it went to). */
void GiveBackBlock(void* data, size_t /* length */, void* capacity) {
  PageBlocks::Process().GiveBack(static_cast<char*>(data), reinterpret_cast<size_t>(capacity));
}

void JoinedBytes(const v8::FunctionCallbackInfo<v8::Value>& args) {
  v8::Isolate* isolate = args.GetIsolate();
  const std::optional<Joined> joined = JoinParts(args, "joinedBytes");
  if (!joined) return;
  std::unique_ptr<v8::BackingStore> store = joined->length == 0
      ? v8::ArrayBuffer::NewBackingStore(isolate, 0)
      : v8::ArrayBuffer::NewBackingStore(joined->data, joined->length, GiveBackBlock, reinterpret_cast<void*>(joined->capacity));
  args.GetReturnValue().Set(v8::ArrayBuffer::New(isolate, std::move(store)));
}

}  // namespace

NODE_MODULE_INIT(/* exports, module, context */) {
  // Loaded once more, never to be unloaded (see above); the handle is kept for good on purpose.
  Dl_info self;
  if (dladdr(reinterpret_cast<void*>(&OneByteText), &self) != 0 && self.dli_fname != nullptr) dlopen(self.dli_fname, RTLD_NOW | RTLD_NODELETE);
  NODE_SET_METHOD(exports, "mallocTrim", MallocTrim);
  NODE_SET_METHOD(exports, "lowMemoryNotification", LowMemoryNotification);
  NODE_SET_METHOD(exports, "oneByteText", OneByteText);
  NODE_SET_METHOD(exports, "joinedOneByteText", JoinedText);
  NODE_SET_METHOD(exports, "joinedBytes", JoinedBytes);
}
