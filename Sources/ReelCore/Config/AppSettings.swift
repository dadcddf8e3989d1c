/// `app.*`: the application Reel runs as.
public struct AppSettings: ConfigSection {
    @Setting("Version of the app using Reel; versioned values with a higher minVersion do not apply.", .version)
    public var version = ReelVersion.current.description

    public init() {}
}
