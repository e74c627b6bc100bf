print("caprof")
