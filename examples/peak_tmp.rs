use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let n = LIVE.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(n, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
}
#[global_allocator]
static A: Counting = Counting;
fn main() {
    let text = std::fs::read_to_string("/tmp/rest.json").unwrap();
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let shelf = toolshelf::Shelf::from_json(&text, "{}").unwrap();
    let mb = |n: usize| n as f64 / 1048576.0;
    println!(
        "after new: live {:.2} MiB, peak {:.2} MiB (text {:.2})",
        mb(LIVE.load(Relaxed) - base),
        mb(PEAK.load(Relaxed) - base),
        mb(text.len())
    );
    shelf.search("x", Some(1));
    println!(
        "after search: live {:.2} MiB, peak {:.2} MiB",
        mb(LIVE.load(Relaxed) - base),
        mb(PEAK.load(Relaxed) - base)
    );
}
