                    CPU0       CPU1       
          HI:          0          0
       TIMER:      10900        560
         RCU:      20500        330
