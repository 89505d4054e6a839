module example.test/fixture

go 1.26.0
