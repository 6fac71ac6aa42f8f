print("geosim")
