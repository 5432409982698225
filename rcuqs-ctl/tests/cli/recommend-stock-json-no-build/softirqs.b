                    CPU0       CPU1       CPU2       CPU3       
          HI:          0          0          0          0
       TIMER:      10750      10750        503        500
       SCHED:       9500       9500        100        100
         RCU:      20300      21330        309        200
