                    CPU0       CPU1       
          HI:          0          0
       TIMER:      11900        580
         RCU:      21500        335
