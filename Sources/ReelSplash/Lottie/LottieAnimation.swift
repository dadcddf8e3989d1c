import ReelCore
import CRLottie

/// An rlottie animation parsed from a document: the one owner of its `Lottie_Animation`, destroyed
/// in `deinit`. Not Sendable: it lives on the `LottieRenderer`'s thread, where every call on it
/// runs. The corresponding C functions are `lottie_animation_from_data` and
/// `lottie_animation_destroy`.
final class LottieAnimation {
    private let pointer: OpaquePointer

    /// Parses `bytes` (checked by `LottieInspection` first); nil when rlottie refuses them.
    /// `key` names the document in rlottie's model cache, so it must differ between documents.
    init?(bytes: [UInt8], key: String) {
        var text = bytes.map { CChar(bitPattern: $0) }
        text.append(0)
        guard let animation = lottie_animation_from_data(text, key, "") else { return nil }
        pointer = animation
    }

    deinit {
        lottie_animation_destroy(pointer)
    }

    /// The canvas in pixels. The corresponding C function is `lottie_animation_get_size`.
    var size: (width: Int, height: Int) {
        var width = 0, height = 0
        lottie_animation_get_size(pointer, &width, &height)
        return (width, height)
    }

    /// Frames per second. The corresponding C function is `lottie_animation_get_framerate`.
    var frameRate: Double { lottie_animation_get_framerate(pointer) }

    /// Frames in one pass. The corresponding C function is `lottie_animation_get_totalframe`.
    var frameCount: Int { lottie_animation_get_totalframe(pointer) }

    /// Draws frame `frame` (0-based) into `buffer`: `width` x `height` premultiplied ARGB32
    /// pixels, `width * 4` bytes a row. The corresponding C function is `lottie_animation_render`.
    func render(frame: Int, into buffer: inout [UInt32], width: Int, height: Int) {
        precondition(buffer.count >= width * height, "render buffer too small")
        buffer.withUnsafeMutableBufferPointer { pixels in
            lottie_animation_render(pointer, frame, pixels.baseAddress, width, height, width * 4)
        }
    }
}
