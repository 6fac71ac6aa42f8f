import SimKernel

extension DeviceProfile {
  /// For logic tests: nothing random decides a verdict, so a plain test gives the same verdict
  /// for every seed.
  ///
  /// Region monitoring keeps Apple's rules — the effective radius, the hysteresis, the dwell,
  /// in-order delivery [A] — and its cadence, but decides from positions within a metre of the
  /// truth (Wi-Fi, GNSS and, with cells a metre apart, cell positions), delivers every transition after exactly the median latency and misses none. Fixes
  /// are never invalid and the first fix is never a stale cached one. GNSS and Wi-Fi still
  /// fail where the scenario's environment says they do (underground, in outages, offline).
  public static var functional: DeviceProfile {
    var parameters = PhoneParameters()
    parameters.staleFirstFixProbability = 0
    parameters.regionMonitoring.latencySigma = 0
    parameters.regionMonitoring.missProbability = 0
    var sensor = SensorParameters()
    sensor.invalidFixProbability = 0
    sensor.coarseJumpsPerHour = 0
    sensor.coarseAccuracy = 1
    sensor.gnssOpenSkyAccuracy = 1
    sensor.gnssUrbanCanyonAccuracy = 1
    sensor.wifiAccuracy = 1
    // Cells a metre apart: where only the serving cell locates the phone (underground), its
    // position too lies within a metre of the truth, whatever the seed.
    sensor.cellSpacing = 1
    return DeviceProfile(
      name: "functional",
      summary:
        "logic tests: positions within a metre of the truth, fixed latencies, no misses, no invalid or stale fixes",
      parameters: parameters, sensor: sensor)
  }

  /// A phone in a city: Wi-Fi access points everywhere, serving cells about a kilometre apart.
  /// These are the documented defaults; calibrated against Radius Networks' walks and drives
  /// in Washington DC and the Qiita tester's walk in Tokyo (docs/DEVICE.md, calibration).
  public static var urban: DeviceProfile {
    DeviceProfile(
      name: "urban",
      summary:
        "a city: Wi-Fi everywhere, cells about 1 km apart (the defaults; Radius Networks, Qiita walk)"
    )
  }

  /// A phone in the suburbs: Wi-Fi on half the open ground, cells about 1.7 km apart.
  public static var suburban: DeviceProfile {
    var parameters = PhoneParameters()
    parameters.regionMonitoring.missProbability = 0.175
    var sensor = SensorParameters()
    sensor.wifiCoverage = 0.5
    sensor.cellSpacing = 1_732
    return DeviceProfile(
      name: "suburban", summary: "the suburbs: Wi-Fi on half the open ground, cells 1.7 km apart",
      parameters: parameters, sensor: sensor)
  }

  /// A phone in the countryside: no Wi-Fi on open ground, cells 5 km apart.
  public static var rural: DeviceProfile {
    var sensor = SensorParameters()
    sensor.wifiCoverage = 0
    sensor.cellSpacing = 5_000
    return DeviceProfile(
      name: "rural", summary: "the countryside: no Wi-Fi on open ground, cells 5 km apart",
      sensor: sensor)
  }

  /// A phone riding trains and buses: as ``urban``; a vehicle's speed already takes Wi-Fi
  /// positions away (``SensorParameters/wifiMaximumSpeed``).
  public static var transit: DeviceProfile {
    var parameters = PhoneParameters()
    parameters.regionMonitoring.gnssWhenNear = false
    return DeviceProfile(
      name: "transit",
      summary:
        "riding trains in a city: no GNSS fix of the phone's own from inside the car, Wi-Fi lost at speed",
      parameters: parameters)
  }
}
