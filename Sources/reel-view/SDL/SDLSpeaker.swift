import CSDL2
import ReelCore
import ReelMedia

/// The speaker: an SDL audio device in queue mode (`SDL_QueueAudio`), fed from the main thread
/// each frame. SDL's own audio thread plays what is queued and plays silence when nothing is:
/// nothing here blocks. Closed before the window (SDL_Quit ends every subsystem).
final class SDLSpeaker {
    let device: SDL_AudioDeviceID
    /// The format queued (SDL converts to the device's own when they differ).
    let format: SoundFormat
    /// SDL's audio driver ("pulseaudio", "alsa", "disk") and the device's buffer in frames.
    let driver: String
    let bufferFrames: Int
    private var closed = false

    /// Opens the default device for `format`. The corresponding C function is `SDL_OpenAudioDevice`.
    init(format: SoundFormat) throws {
        guard SDL_InitSubSystem(UInt32(SDL_INIT_AUDIO)) == 0 else {
            throw ReelError(.internalFailure, "no audio: SDL cannot start its audio (\(SDLScreen.lastError))")
        }
        var want = SDL_AudioSpec()
        want.freq = Int32(format.sampleRate)
        want.format = SDL_AudioFormat(AUDIO_S16SYS)
        want.channels = UInt8(format.channels)
        want.samples = 1024
        var have = SDL_AudioSpec()
        let device = SDL_OpenAudioDevice(nil, 0, &want, &have, 0)
        guard device != 0 else {
            let message = SDLScreen.lastError
            SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
            throw ReelError(.internalFailure, "no audio device: \(message)")
        }
        self.device = device
        self.format = format
        driver = SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "unknown"
        bufferFrames = Int(have.samples)
        // Plays from now on: silence until sound is queued.
        SDL_PauseAudioDevice(device, 0)
    }

    deinit { close() }

    /// Seconds of sound queued and not yet handed to the device, plus the device's own buffer:
    /// what is queued now is heard after that long.
    var queuedSeconds: Double {
        let bytes = Int(SDL_GetQueuedAudioSize(device))
        return format.seconds(frames: bytes / (2 * format.channels) + bufferFrames)
    }

    /// Queues interleaved samples in `format`. The corresponding C function is `SDL_QueueAudio`.
    func queue(_ samples: [Int16]) {
        guard !samples.isEmpty else { return }
        samples.withUnsafeBytes { bytes in
            _ = SDL_QueueAudio(device, bytes.baseAddress, UInt32(bytes.count))
        }
    }

    /// Queues `frames` frames of silence.
    func queueSilence(frames: Int) {
        queue([Int16](repeating: 0, count: frames * format.channels))
    }

    /// Drops what is queued: a pause, another card, muted.
    func clear() { SDL_ClearQueuedAudio(device) }

    func close() {
        guard !closed else { return }
        closed = true
        SDL_CloseAudioDevice(device)
        SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
    }
}
