import Device

/// What every reference app holds from the moment the phone creates it — which version runs,
/// its validated configuration and the services outside the phone — and, once launched, the
/// phone it runs on.
///
/// Each app is a final subclass (`PinDrop: ReferenceApp<PinDrop.Configuration>`) that adds the
/// state of its article's code. Its `didLaunch(on:reason:)` keeps the phone first and then does
/// what the article's launch does, in the article's order; the phone creates a fresh instance
/// at each launch, so nothing here survives a relaunch.
public class ReferenceApp<Configuration: Sendable> {
  /// Which version runs.
  public let variant: ReferenceAppVariant
  /// The validated configuration.
  let configuration: Configuration
  /// The network and the geocoder's server the app reaches.
  let services: ReferenceAppServices
  /// The phone, from the launch on.
  @Uncounted var phone: Phone? = nil

  /// A fresh instance, as the phone creates at each launch.
  public init(
    variant: ReferenceAppVariant, configuration: Configuration, services: ReferenceAppServices
  ) {
    self.variant = variant
    self.configuration = configuration
    self.services = services
  }
}
