           CPU0       CPU1       
  0:         10          5   IO-APIC   2-edge      timer
NMI:          0          0   Non-maskable interrupts
LOC:       2900        800   Local timer interrupts
RES:        300        170   Rescheduling interrupts
CAL:         90         40   Function call interrupts
ERR:          9
MIS:          0
