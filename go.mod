module pitch

go 1.26.8
