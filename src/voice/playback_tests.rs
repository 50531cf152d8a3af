use super::*;
use crate::voice::beep;
use crate::voice::capture::Pacing;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[test]
fn an_unpaced_wav_sink_keeps_clips_in_order_at_16k() {
    let sink = WavSink::new(Pacing::Unpaced);
    let start = beep::start_beep();
    let at_24k = Clip::new(vec![1000; 2400], 24_000);
    sink.play(start.clone()).unwrap();
    sink.play(at_24k).unwrap();
    sink.play(Clip::new(vec![], 16_000)).unwrap();
    assert!(sink.is_idle());

    let clips = sink.clips();
    assert_eq!(clips.len(), 3);
    assert_eq!((clips[0].offset, clips[0].len), (0, 1920));
    assert_eq!(
        (clips[1].offset, clips[1].len),
        (1920, 1600),
        "100 ms at 16 kHz"
    );
    assert_eq!(clips[2].len, 0);
    assert!(clips[0].queued_at <= clips[1].queued_at);
    assert!(clips.iter().all(|c| c.started_at == c.queued_at));
    let samples = sink.samples();
    assert_eq!(samples.len(), 3520);
    assert_eq!(samples[..1920], start.samples[..]);
    // The resampled constant sits at its level away from the edges.
    assert!(
        samples[2200..3200]
            .iter()
            .all(|&s| (990..=1010).contains(&s))
    );
}

#[test]
fn a_real_time_wav_sink_plays_clips_one_after_another() {
    let sink = WavSink::new(Pacing::RealTime);
    sink.play(Clip::new(vec![500; 4800], 16_000)).unwrap(); // 300 ms
    sink.play(Clip::new(vec![700; 3200], 16_000)).unwrap(); // 200 ms
    assert!(!sink.is_idle());
    let clips = sink.clips();
    let gap = ms(clips[1].started_at - clips[0].started_at);
    assert!(
        (gap - 300.0).abs() < 1.0,
        "second starts when the first ends: {gap} ms"
    );
    std::thread::sleep(Duration::from_millis(560));
    assert!(sink.is_idle());
    // After an idle spell a clip starts at once.
    sink.play(Clip::new(vec![1; 160], 16_000)).unwrap();
    let last = sink.clips()[2].clone();
    assert_eq!(last.started_at, last.queued_at);
}

#[test]
fn stop_on_a_real_time_wav_sink_keeps_only_what_was_heard() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("heard.wav");
    let sink = WavSink::new(Pacing::RealTime).with_file(&path);
    sink.play(Clip::new(vec![800; 48_000], 16_000)).unwrap(); // 3 s
    sink.play(Clip::new(vec![900; 16_000], 16_000)).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    sink.stop();
    assert!(sink.is_idle(), "idle the moment stop returns");
    assert_eq!(sink.stops(), 1);
    let clips = sink.clips();
    let heard = clips[0].len as f64 / 16.0;
    assert!(
        (190.0..2900.0).contains(&heard),
        "first clip cut after {heard} ms"
    );
    assert_eq!(clips[1].len, 0, "the queued clip never started");
    let samples = sink.samples();
    assert_eq!(samples.len(), clips[0].len);
    assert!(samples.iter().all(|&s| s == 800));
    assert_eq!(
        crate::voice::wav::read_clip(&path).unwrap().samples,
        samples
    );

    sink.play(Clip::new(vec![5; 1600], 16_000)).unwrap();
    let again = sink.clips()[2].clone();
    assert_eq!(
        again.started_at, again.queued_at,
        "a stopped sink plays the next clip at once"
    );
    assert_eq!(again.offset, samples.len());
}

#[test]
fn a_tracked_source_counts_itself_out_when_it_ends_or_is_dropped() {
    let pending = Arc::new(AtomicUsize::new(2));
    let mut whole = Tracked::new(vec![0.5, -0.5, 0.0], 8_000, Some(Arc::clone(&pending)));
    assert_eq!(whole.sample_rate().get(), 8_000);
    assert_eq!(whole.channels().get(), 1);
    let played: Vec<f32> = whole.by_ref().collect();
    assert_eq!(played, vec![0.5, -0.5, 0.0]);
    assert_eq!(pending.load(Ordering::SeqCst), 1, "ended");
    drop(whole);
    assert_eq!(pending.load(Ordering::SeqCst), 1, "counted once");

    let cut = Tracked::new(vec![0.1; 100], 16_000, Some(Arc::clone(&pending)));
    drop(cut);
    assert_eq!(
        pending.load(Ordering::SeqCst),
        0,
        "dropped unfinished (stopped)"
    );
}

#[test]
fn a_conversion_resamples_a_long_clip_in_pieces_and_counts_it_out_once() {
    let pending = Arc::new(AtomicUsize::new(1));
    let tone: Vec<i16> = crate::voice::beep::tone(440.0, Duration::from_millis(2500), 0.5);
    let mut conversion =
        Conversion::new(Clip::new(tone, 16_000), 48_000, Arc::clone(&pending)).unwrap();
    let mut pieces = Vec::new();
    while let Some(piece) = conversion.next_piece().unwrap() {
        pieces.push(piece);
    }
    assert_eq!(pieces.len(), 10, "quarter seconds of input");
    assert!(pieces.iter().all(|p| p.sample_rate().get() == 48_000));
    assert_eq!(pending.load(Ordering::SeqCst), 1, "still queued");
    let out: Vec<f32> = pieces.into_iter().flatten().collect();
    assert_eq!(
        out.len(),
        120_000,
        "2.5 s at 48 kHz, nothing lost between pieces"
    );
    // Continuous across piece boundaries: no step bigger than the sine's own.
    let max_step = out
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f32::max);
    let sine_step = 0.5 * 2.0 * std::f32::consts::PI * 440.0 / 48_000.0;
    assert!(max_step < sine_step * 1.1, "{max_step} vs {sine_step}");
    assert_eq!(
        pending.load(Ordering::SeqCst),
        0,
        "the last piece counted it out"
    );

    // Dropped half-way (a stop): counted out too.
    let pending = Arc::new(AtomicUsize::new(1));
    let mut conversion = Conversion::new(
        Clip::new(vec![0; 40_000], 16_000),
        44_100,
        Arc::clone(&pending),
    )
    .unwrap();
    let _first = conversion.next_piece().unwrap();
    drop(conversion);
    drop(_first);
    assert_eq!(pending.load(Ordering::SeqCst), 0);

    let same = Conversion::new(Clip::new(vec![100; 10], 48_000), 48_000, Arc::default());
    let piece: Vec<f32> = same.unwrap().next_piece().unwrap().unwrap().collect();
    assert_eq!(piece.len(), 10, "no conversion at the device rate");
}
