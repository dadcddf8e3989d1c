import FuzzSupport

// libFuzzer runs the entry point over the corpus and its mutations until it is told to stop. It
// always passes a buffer, even for an empty input.
FuzzDriver.run { data, size in
    guard let data else { return 0 }
    return fuzz(data, size)
}
